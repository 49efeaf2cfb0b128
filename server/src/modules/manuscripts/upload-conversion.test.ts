// Uploads that only arrive whole when the conversion reads them right: legacy encodings, a DOCX
// whose main part has another name, the document's own title; and text no encoding reads,
// which is refused with a message instead of arriving as mojibake.
import iconv from 'iconv-lite';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type ReaderResponse } from '@margins/common';
import { DEFAULT_JOB_SETTINGS } from '../../config.ts';
import { schema } from '../../db/index.ts';
import { buildWordDocx, paragraph } from '../../conversion/docx-test-builder.ts';
import { PROSE } from '../../conversion/fixtures/encoding-samples.ts';
import { buildZip, unzip, utf8 } from '../../conversion/test-factories.ts';
import { createTestApp, type TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import { postFile, waitForState } from './test-helpers.ts';

let test: TestApp;
beforeAll(async () => {
  test = await createTestApp({ jobs: { ...DEFAULT_JOB_SETTINGS, pollingSeconds: 0.5 } });
});
afterAll(async () => {
  await test?.close();
});

async function upload(name: string, content: Buffer) {
  const { client } = await loggedInClient(test);
  const response = await postFile(client, '/manuscript/document', name, content);
  expect(response.statusCode, response.body).toBe(200);
  const state = await waitForState(client, response.json().process_id);
  return { client, state, id: response.json().manuscript.id as number };
}

describe('uploads the conversion must read right', () => {
  it('shows windows-1251 text in Cyrillic, not mojibake', async () => {
    const { client, state, id } = await upload(
      'dom.txt',
      iconv.encode(PROSE.russian, 'windows-1251'),
    );
    expect(state.status, state.message).toBe('SUCCESS');
    const reader = (await client.get(`/manuscript/document/reader/${id}`)).json() as ReaderResponse;
    expect(reader.html).toContain('Старый дом стоял на краю деревни');
  });

  it('refuses text that no encoding reads at upload with a message, keeping nothing', async () => {
    const noise = Buffer.alloc(3000);
    for (let i = 0; i < noise.length; i += 1)
      noise[i] = i % 6 === 5 ? 0x20 : 0x80 + ((i * 73) % 0x80);
    const { client, user } = await loggedInClient(test);
    const response = await postFile(client, '/manuscript/document', 'noise.txt', noise);
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toBe(MESSAGES.textEncodingUnknown);
    const kept = await test.ctx.db
      .select({ id: schema.manuscripts.id })
      .from(schema.manuscripts)
      .where(eq(schema.manuscripts.userId, user.id));
    expect(kept).toEqual([]);
  });

  it('converts a DOCX whose main part is word/document2.xml, titled by its properties', async () => {
    const entries = unzip(
      buildWordDocx({
        body: paragraph('Chapter One', { style: 'Heading1' }) + paragraph('It began at the mill.'),
      }),
    );
    entries['word/document2.xml'] = entries['word/document.xml']!;
    entries['word/_rels/document2.xml.rels'] = entries['word/_rels/document.xml.rels']!;
    delete entries['word/document.xml'];
    delete entries['word/_rels/document.xml.rels'];
    entries['_rels/.rels'] = utf8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document2.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
    );
    entries['[Content_Types].xml'] = utf8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document2.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    );
    entries['docProps/core.xml'] = utf8(
      '<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Mill at Dawn</dc:title></cp:coreProperties>',
    );
    const { client, state, id } = await upload('draft-7.docx', Buffer.from(buildZip(entries)));
    expect(state.status, state.message).toBe('SUCCESS');
    expect(state.manuscript?.title).toBe('The Mill at Dawn');
    const reader = (await client.get(`/manuscript/document/reader/${id}`)).json() as ReaderResponse;
    expect(reader.html).toContain('It began at the mill.');
  });
});
