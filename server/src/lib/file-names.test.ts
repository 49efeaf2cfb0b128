import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../db/index.ts';
import { personFor, type Person } from '../modules/invites/test-helpers.ts';
import { CHOOSE_FILE_MESSAGE } from '../modules/manuscripts/multipart.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { cleanFileName, contentDisposition } from './file-names.ts';

let test: TestApp;
let author: Person;

beforeAll(async () => {
  test = await createTestApp();
  author = await personFor(test);
});
afterAll(() => test.close());

const STORY = '# The Ledger\n\nA few words of a story.\n';

/** An upload whose file part names the file with `disposition` (raw header text). */
function uploadWithDisposition(disposition: string) {
  const boundary = '----marginsfilenames';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="docxfile"; ${disposition}\r\n` +
        'Content-Type: text/markdown\r\n\r\n',
    ),
    Buffer.from(STORY),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return author.client.request({
    method: 'POST',
    url: '/manuscript/document',
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

// eslint-disable-next-line no-control-regex -- what must never reach a header or the database
const CONTROL = /[\u0000-\u001F\u007F]/;

describe('hostile upload file names', () => {
  const names: Array<{ disposition: string; stored: string | null }> = [
    // The multipart parser drops a file part whose decoded name has CR or LF: no file, a 400.
    { disposition: `filename*=UTF-8''bad%0D%0Aname%00.md`, stored: null },
    { disposition: `filename*=UTF-8''%00%0D%0A`, stored: null },
    { disposition: `filename*=UTF-8''nul%00%01%7F.md`, stored: 'nul .md' },
    { disposition: 'filename="tab\there\u0001.md"', stored: 'tab here .md' },
    { disposition: `filename*=UTF-8''%E2%80%A8line%C2%85sep.md`, stored: 'line sep.md' },
    {
      disposition: `filename*=UTF-8''..%2F..%2Fetc%2Fr%C3%A9cit%20%22q%22%3B.md`,
      stored: 'récit "q";.md',
    },
    { disposition: `filename*=UTF-8''%00%01story.md`, stored: 'story.md' },
  ];

  for (const { disposition, stored } of names) {
    it(`${disposition}: accepted with a clean name, downloaded with an encoded one`, async () => {
      const response = await uploadWithDisposition(disposition);
      if (stored === null) {
        expect(response.statusCode).toBe(400);
        expect(response.json().error).toBe(CHOOSE_FILE_MESSAGE);
        return;
      }
      expect(response.statusCode, response.body).toBeLessThan(300);
      const [conversion] = await test.ctx.db
        .select()
        .from(schema.documentConversions)
        .where(eq(schema.documentConversions.id, response.json().process_id));
      expect(conversion!.fileName).toBe(stored);
      expect(response.json().manuscript.title).not.toMatch(CONTROL);

      const download = await author.client.get(`/media/${conversion!.originalMediaId}`);
      expect(download.statusCode).toBe(200);
      const header = String(download.headers['content-disposition']);
      expect(header).not.toMatch(CONTROL);
      expect(header).toBe(contentDisposition('attachment', stored));
      const encoded = /filename\*=UTF-8''(.*)$/.exec(header)![1]!;
      expect(decodeURIComponent(encoded)).toBe(stored);
    });
  }
});

describe('cleanFileName and contentDisposition', () => {
  it('keeps letters of any script, drops control characters and broken surrogates', () => {
    expect(cleanFileName('C:\\Users\\me\\Roman 中文 ✓.docx')).toBe('Roman 中文 ✓.docx');
    expect(cleanFileName('half\ud800.txt')).toBe('half.txt');
    expect(cleanFileName('\u0000\u0007')).toBe('upload');
    expect([...cleanFileName('a'.repeat(300) + '.md')]).toHaveLength(255);
  });

  it('writes an ASCII fallback and the exact UTF-8 name (RFC 6266)', () => {
    expect(contentDisposition('attachment', 'récit "q";\r\n.md')).toBe(
      `attachment; filename="r_cit _q__ .md"; filename*=UTF-8''r%C3%A9cit%20%22q%22%3B%20.md`,
    );
  });
});
