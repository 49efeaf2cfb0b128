import { convertWithPandoc } from './pandoc.ts';
import type { ConversionResult } from './types.ts';

/** RTF → normalised HTML. (Temporary: still through pandoc; an own reader replaces it.) */
export function convertRtf(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  return convertWithPandoc(bytes, 'rtf', imageUrl);
}
