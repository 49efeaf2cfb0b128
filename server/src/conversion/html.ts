import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { decodeText } from './text-encoding.ts';

/** HTML → normalised HTML: decoded (BOM, UTF-8, `<meta charset>`, guess) and sent straight to the normaliser. */
export function convertHtml(bytes: Uint8Array): NormalisedDocument {
  return normaliseHtml(decodeText(bytes, declaredCharset(bytes)).text);
}

function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString(
    'latin1',
  );
  const match = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head);
  return match?.[1] ?? null;
}
