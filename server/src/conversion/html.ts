import { assertMarkupNesting } from './nesting.ts';
import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { decodeText } from './text-encoding.ts';

/**
 * HTML → normalised HTML: decoded (BOM, UTF-8, `<meta charset>`, guess), its nesting checked, and
 * sent straight to the normaliser; `storePicture` keeps the pictures of `data:` URLs.
 */
export function convertHtml(
  bytes: Uint8Array,
  storePicture?: (data: Uint8Array) => string | null,
): NormalisedDocument {
  const html = decodeText(bytes, declaredCharset(bytes)).text;
  assertMarkupNesting(html, 'HTML');
  return normaliseHtml(html, { storePicture });
}

function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 2048)).toString(
    'latin1',
  );
  const match = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head);
  return match?.[1] ?? null;
}
