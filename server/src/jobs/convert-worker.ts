// Runs in a piscina worker thread: one document conversion per task, off the event loop.
import { ConversionError, convertDocument, type SourceFormat } from '../conversion/index.ts';
import type { ConversionOutcome, WorkerTask, WarmUpReport } from './conversion-pool.ts';
import { imageMediaId } from './image-media-id.ts';
import { warmUpDocx, warmUpHtml, warmUpMarkdown, warmUpText } from './warm-up-document.ts';

/** Converts one document; a ConversionError comes back as a value (errors lose their class across threads). */
export default async function convert(task: WorkerTask): Promise<ConversionOutcome | WarmUpReport> {
  if ('warmUp' in task) return warmUp(task.warmUp);
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

/** Synthetic documents, made once per thread (see warm-up-document.ts). */
let warmUpDocuments: Partial<Record<SourceFormat, Uint8Array>> | null = null;

/**
 * Converts a synthetic document of this format, so that the converter's modules are loaded into
 * this thread and V8 gets to optimise its hot paths before the first real upload.
 */
async function warmUp(format: SourceFormat): Promise<WarmUpReport> {
  const start = performance.now();
  warmUpDocuments ??= {
    docx: warmUpDocx(600),
    md: warmUpMarkdown(200),
    txt: warmUpText(200),
    html: warmUpHtml(200),
  };
  const bytes = warmUpDocuments[format];
  if (bytes) await convertDocument(bytes, format);
  return { conversions: bytes ? 1 : 0, seconds: (performance.now() - start) / 1000 };
}
