import { looksLikeCfb } from './cfb.ts';
import { detectFormat } from './detect-format.ts';
import { findDocxMainPart } from './docx-main-part.ts';
import { ConversionError } from './errors.ts';
import { checkZip, looksLikeZip, type CheckedZip } from './zip.ts';

/**
 * Checks that the bytes really are the DOCX/ODT package the caller says, and that it is safe to
 * unpack (see checkZip). Encrypted and legacy Word files get their own errors.
 */
export function openPackage(bytes: Uint8Array, format: 'docx' | 'odt'): CheckedZip {
  const fileName = `manuscript.${format}`;
  if (looksLikeCfb(bytes) || !looksLikeZip(bytes)) {
    detectFormat(fileName, bytes); // throws the precise error (encrypted, legacy_doc, corrupt…)
    throw notA(format);
  }
  const archive = checkZip(bytes);
  const hasMainPart =
    format === 'docx'
      ? findDocxMainPart(
          (name) => archive.has(name),
          (name) => archive.readText(name),
        ) !== null
      : archive.has('content.xml');
  if (!hasMainPart) throw notA(format);
  return archive;
}

function notA(format: 'docx' | 'odt'): ConversionError {
  const label = format.toUpperCase();
  return new ConversionError(
    'corrupt',
    `The file is not a valid ${label} document. Open it in your word processor, save it again as .${format}, and upload that.`,
  );
}
