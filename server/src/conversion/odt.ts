import { convertWithPandoc } from './pandoc.ts';
import type { ConversionResult } from './types.ts';

/** ODT → normalised HTML. (Temporary: still through pandoc; an own reader replaces it.) */
export function convertOdt(
  bytes: Uint8Array,
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  return convertWithPandoc(bytes, 'odt', imageUrl);
}
