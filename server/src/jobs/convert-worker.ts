// Runs in a piscina worker thread: one document conversion per task, off the event loop.
import { ConversionError, convertDocument } from '../conversion/index.ts';
import type { ConversionTask, ConversionOutcome } from './conversion-pool.ts';
import { imageMediaId } from './conversion-pool.ts';

/** Converts one document; a ConversionError comes back as a value (errors lose their class across threads). */
export default async function convert(task: ConversionTask): Promise<ConversionOutcome> {
  const imageUrl = (imageId: string) => `/media/${imageMediaId(task.imagePrefix, imageId)}`;
  try {
    const result = await convertDocument(new Uint8Array(task.bytes), task.format, { imageUrl });
    return { ok: true, result };
  } catch (error) {
    if (error instanceof ConversionError) {
      return { ok: false, code: error.code, message: error.message };
    }
    throw error;
  }
}
