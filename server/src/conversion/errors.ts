export type ConversionErrorCode =
  | 'unsupported_format'
  | 'encrypted'
  | 'legacy_doc'
  | 'corrupt'
  | 'too_large'
  | 'empty'
  | 'too_slow';

export const ACCEPTED_FORMATS_SENTENCE =
  'Accepted formats are DOCX, RTF, ODT, text, HTML and Markdown.';

/** A document that cannot be converted; `message` tells the author what to do about it. */
export class ConversionError extends Error {
  readonly code: ConversionErrorCode;

  constructor(code: ConversionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConversionError';
    this.code = code;
  }
}
