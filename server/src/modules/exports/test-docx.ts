// Reads an exported DOCX back for the tests: the Word comments (comments.xml), their threading
// (commentsExtended.xml) and the exact text each comment range covers in document.xml.
import { strFromU8, unzipSync } from 'fflate';

const decode = (text: string) =>
  text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

interface ReadComment {
  id: number;
  author: string;
  date: string;
  text: string;
  /** The Word id of the comment this one replies to (via commentsExtended). */
  parentId: number | null;
  done: boolean;
}

interface ReadDocx {
  files: Record<string, string>;
  comments: Map<number, ReadComment>;
  /** Word comment id → the document text between its range start and end. */
  anchored: Map<number, string>;
  /** The document's text, paragraphs joined with "\n". */
  text: string;
}

/** Unzips and reads the parts the tests check. */
export function readDocx(bytes: Uint8Array): ReadDocx {
  const files = Object.fromEntries(
    Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]),
  );
  const comments = new Map<number, ReadComment>();
  const paraOf = new Map<string, number>();
  for (const match of (files['word/comments.xml'] ?? '').matchAll(
    /<w:comment\b([^>]*)>([\s\S]*?)<\/w:comment>/g,
  )) {
    const attrs = match[1]!;
    const id = Number(/w:id="(\d+)"/.exec(attrs)![1]);
    const paragraphs = [...match[2]!.matchAll(/<w:p\b[\s\S]*?<\/w:p>/g)].map((p) =>
      [...p[0].matchAll(/<w:t\b[^>]*>([^<]*)<\/w:t>/g)].map((t) => decode(t[1]!)).join(''),
    );
    for (const para of match[2]!.matchAll(/w14:paraId="([0-9A-F]+)"/g)) paraOf.set(para[1]!, id);
    comments.set(id, {
      id,
      author: decode(/w:author="([^"]*)"/.exec(attrs)?.[1] ?? ''),
      date: /w:date="([^"]*)"/.exec(attrs)?.[1] ?? '',
      text: paragraphs.join('\n'),
      parentId: null,
      done: false,
    });
  }
  for (const match of (files['word/commentsExtended.xml'] ?? '').matchAll(
    /<w15:commentEx\b([^>]*)\/>/g,
  )) {
    const own = paraOf.get(/w15:paraId="([0-9A-F]+)"/.exec(match[1]!)?.[1] ?? '');
    const parent = /w15:paraIdParent="([0-9A-F]+)"/.exec(match[1]!)?.[1];
    if (own === undefined) continue;
    const comment = comments.get(own)!;
    comment.done = /w15:done="1"/.test(match[1]!);
    if (parent !== undefined) comment.parentId = paraOf.get(parent) ?? null;
  }
  const anchored = new Map<number, string>();
  const open = new Set<number>();
  const paragraphs: string[] = [];
  let current = '';
  for (const token of (files['word/document.xml'] ?? '').matchAll(
    /<w:commentRangeStart w:id="(\d+)"\/>|<w:commentRangeEnd w:id="(\d+)"\/>|<w:t\b[^>]*>([^<]*)<\/w:t>|<\/w:p>/g,
  )) {
    if (token[1] !== undefined) {
      open.add(Number(token[1]));
      anchored.set(Number(token[1]), '');
    } else if (token[2] !== undefined) {
      open.delete(Number(token[2]));
    } else if (token[3] !== undefined) {
      const text = decode(token[3]);
      current += text;
      for (const id of open) anchored.set(id, anchored.get(id)! + text);
    } else {
      paragraphs.push(current);
      current = '';
      for (const id of open) anchored.set(id, `${anchored.get(id)!}\n`);
    }
  }
  return { files, comments, anchored, text: paragraphs.join('\n') };
}

/** A small RFC 4180 CSV reader (quoted fields, doubled quotes, CRLF), for reading exports back. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let index = 0; index < body.length; index++) {
    const char = body[index]!;
    if (quoted) {
      if (char === '"' && body[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r') continue;
    else if (char === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
