import { randomBytes } from 'node:crypto';
import type { TestApp } from '../../test/harness.ts';
import { loggedInClient } from '../../test/factories.ts';
import type { UserRow } from '../../context.ts';

/** A real 1×1 PNG. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
/** The start of a GIF (enough for sniffing). */
export const GIF_BYTES = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]);

interface FilePart {
  name: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** A multipart/form-data body and its content-type header, as a browser's FormData sends it. */
export function multipartBody(fields: Record<string, string>, file?: FilePart) {
  const boundary = `----margins${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

let nextIp = 1;

/** A logged-in client from its own address, so that many logins stay under the per-IP limit. */
export function clientFor(test: TestApp, user?: UserRow) {
  const n = nextIp++;
  return loggedInClient(test, user, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
}
