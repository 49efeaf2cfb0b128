import { assertMarkupNesting } from './nesting.ts';
import { normaliseHtml, type NormalisedDocument } from './normalise/index.ts';
import { declaredHtmlCharset, decodeText } from './text-encoding.ts';

/**
 * HTML → normalised HTML: decoded (BOM, UTF-8, `<meta charset>`, guess), its nesting checked, and
 * sent straight to the normaliser; `storePicture` keeps the pictures of `data:` URLs.
 */
export function convertHtml(
  bytes: Uint8Array,
  storePicture?: (data: Uint8Array) => string | null,
): NormalisedDocument {
  const html = decodeText(bytes, declaredHtmlCharset(bytes)).text;
  assertMarkupNesting(html, 'HTML');
  return normaliseHtml(html, { storePicture });
}
