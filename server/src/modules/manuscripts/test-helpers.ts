import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { DocumentStateResponse } from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';
import type { TestClient } from '../../test/harness.ts';
import type { UserRow } from '../../context.ts';

type ManuscriptInsert = typeof schema.manuscripts.$inferInsert;

/** A multipart/form-data body: text fields (repeated for arrays) and at most one file. */
export function multipartBody(
  fields: Record<string, string | string[]>,
  file?: { name: string; content: Buffer | string; field?: string; type?: string },
  extraFiles: Array<{ name: string; content: Buffer | string; field?: string }> = [],
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----margins${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${item}\r\n`,
        ),
      );
    }
  }
  for (const part of file ? [file, ...extraFiles] : extraFiles) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.field ?? 'docxfile'}"; filename="${part.name}"\r\n` +
          `Content-Type: ${'type' in part && part.type ? part.type : 'application/octet-stream'}\r\n\r\n`,
      ),
      Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POSTs a file (and fields) as the web client does. */
export function postFile(
  client: TestClient,
  url: string,
  name: string,
  content: Buffer | string,
  fields: Record<string, string | string[]> = {},
): Promise<LightMyRequestResponse> {
  const { payload, headers } = multipartBody(fields, { name, content });
  return client.request({ method: 'POST', url, payload, headers });
}

/** Polls the state call until the conversion is over (like the client, but faster). */
export async function waitForState(
  client: TestClient,
  processId: string,
  timeoutMs = 60_000,
): Promise<DocumentStateResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.get(`/manuscript/document/state/${processId}`);
    if (response.statusCode !== 200) throw new Error(`state call: ${response.body}`);
    const body = response.json() as DocumentStateResponse;
    if (body.status !== 'PENDING' && body.status !== 'PROGRESS') return body;
    if (Date.now() > deadline) throw new Error(`still ${body.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const fixturesDir = new URL('../../conversion/fixtures/', import.meta.url);
/** A file of the conversion fixtures (small.docx, small.json …). */
export const fixture = (name: string): Buffer => readFileSync(new URL(name, fixturesDir));

/**
 * A converted manuscript written straight to the database (no upload, no job), for policy and
 * list tests.
 */
export async function buildManuscript(
  db: Executor,
  author: UserRow,
  overrides: Partial<ManuscriptInsert> = {},
  html = '<h1 id="h-start">Start</h1><p id="p-one">Once upon a time.</p>',
) {
  const [manuscript] = await db
    .insert(schema.manuscripts)
    .values({ userId: author.id, title: 'A test manuscript', inking: false, ...overrides })
    .returning();
  const [version] = await db
    .insert(schema.manuscriptVersions)
    .values({
      manuscriptId: manuscript!.id,
      number: 1,
      sourceFormat: 'html',
      fileName: 'test.html',
      html,
      toc: [{ id: 'h-start', level: 1, text: 'Start' }],
      words: 5,
    })
    .returning();
  const [updated] = await db
    .update(schema.manuscripts)
    .set({ currentVersionId: version!.id, words: 5 })
    .where(eq(schema.manuscripts.id, manuscript!.id))
    .returning();
  return updated!;
}
