import { Piscina } from 'piscina';
import type { ConversionErrorCode, ConversionResult, SourceFormat } from '../conversion/index.ts';

/** One conversion for the worker thread. */
export interface ConversionTask {
  /** The uploaded file (transferred to the worker, not copied). */
  bytes: ArrayBuffer;
  format: SourceFormat;
  /** Media ids of extracted images start with this (unique per conversion). */
  imagePrefix: string;
}

/** What the worker answers: the result, or the ConversionError's code and message. */
export type ConversionOutcome =
  | { ok: true; result: ConversionResult }
  | { ok: false; code: ConversionErrorCode; message: string };

/** The media id of an image extracted by one conversion (its content hash, shortened, after the prefix). */
export function imageMediaId(prefix: string, imageId: string): string {
  return `${prefix}-${imageId.slice(0, 32)}`;
}

/**
 * The worker-thread pool that converts documents (CPU-heavy: pandoc-wasm blocks its thread for
 * seconds), so the event loop never stalls. Threads start on first use and are reused.
 */
export class ConversionPool {
  private readonly pool: Piscina<ConversionTask, ConversionOutcome>;

  constructor(threads: number) {
    this.pool = new Piscina({
      filename: new URL('./convert-worker-entry.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      // A thread that converted a book keeps pandoc and mammoth warm for the next upload.
      idleTimeout: 10 * 60_000,
    });
  }

  /** How many conversions may run at once (the job worker takes no more than this). */
  get threads(): number {
    return this.pool.options.maxThreads;
  }

  /** Converts in a worker thread. The bytes are copied once and transferred. */
  async convert(
    bytes: Uint8Array,
    format: SourceFormat,
    imagePrefix: string,
  ): Promise<ConversionOutcome> {
    const copy = new Uint8Array(bytes.byteLength);
    copy.set(bytes);
    const task: ConversionTask = { bytes: copy.buffer, format, imagePrefix };
    return this.pool.run(task, { transferList: [copy.buffer] });
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
