/** Largest upload we try to convert. */
export const MAX_INPUT_BYTES = 50 * 1024 * 1024;

/** A DOCX/ODT archive may not unpack to more than this in total (zip-bomb guard). */
export const MAX_UNPACKED_BYTES = 250 * 1024 * 1024;

/** A DOCX/ODT archive may not hold more entries than this. */
export const MAX_ARCHIVE_ENTRIES = 5_000;

/** No single entry may expand by more than this factor (zip-bomb guard). */
export const MAX_COMPRESSION_RATIO = 200;

/** Expansion below this size is never treated as a bomb, whatever the ratio. */
export const RATIO_CHECK_MIN_BYTES = 5 * 1024 * 1024;

/**
 * HTML and Markdown elements may not nest deeper than this (the XML readers stop at 256, RTF at
 * 1000 groups). No manuscript needs it, and an HTML parser slows quadratically with the depth.
 */
export const MAX_MARKUP_NESTING = 512;
