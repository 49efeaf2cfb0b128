import { Piscina } from 'piscina';
import type { ConversionSettings } from '../config.ts';
import { runningFromBundle } from '../paths.ts';
import type { ConversionErrorCode, ConversionResult, SourceFormat } from '../conversion/index.ts';

/** One conversion for the worker thread. */
export interface ConversionTask {
  /** The uploaded file (transferred to the worker, not copied). */
  bytes: ArrayBuffer;
  format: SourceFormat;
  /** Media ids of extracted images start with this (unique per conversion). */
  imagePrefix: string;
}

/** Warms a thread up: converts a synthetic document of this format once (see convert-worker.ts). */
export interface WarmUpTask {
  warmUp: SourceFormat;
}

export type WorkerTask = ConversionTask | WarmUpTask;

/** What the worker answers: the result, or the ConversionError's code and message. */
export type ConversionOutcome =
  | { ok: true; result: ConversionResult }
  | { ok: false; code: ConversionErrorCode; message: string };

export interface WarmUpReport {
  /** Synthetic conversions run (fewer when real work arrived meanwhile). */
  conversions: number;
  seconds: number;
}

/** The media id of an image extracted by one conversion (its content hash, shortened, after the prefix). */
export function imageMediaId(prefix: string, imageId: string): string {
  return `${prefix}-${imageId.slice(0, 32)}`;
}

/** Formats converted by pandoc-wasm, whose WebAssembly instance (~300 MB) stays in its thread. */
const PANDOC_FORMATS: ReadonlySet<SourceFormat> = new Set(['odt', 'rtf']);
/**
 * What a long-lived thread is warmed up with: each converter once (loads its modules), then DOCX
 * a few more times, as V8 optimises a function only after it has run hot for a while. One task
 * each, so that real work waits for one of them at most (about 0.1–0.3 s), not for all.
 */
const WARM_UP: SourceFormat[] = ['docx', 'md', 'txt', 'html', 'docx', 'docx', 'docx'];

type Pool = Piscina<WorkerTask, ConversionOutcome | WarmUpReport>;

/**
 * The worker threads that convert documents (CPU-heavy: pandoc-wasm blocks its thread for
 * seconds), so the event loop never stalls. Two kinds of thread, by what a thread keeps once it
 * has run:
 *
 * - DOCX, Markdown, text and HTML run in long-lived threads that keep mammoth and the normaliser
 *   loaded and optimised by V8 (~130 MB). With `warmUp`, one is started and warmed up at start,
 *   so that the first upload does not pay for thread start, module loading and JIT warm-up.
 * - ODT and RTF run in a pandoc thread that ends right after its job: pandoc's WebAssembly
 *   instance (~300 MB) would otherwise stay in the server for good. Each ODT/RTF job loads
 *   pandoc again (about half a second).
 *
 * With one thread (the default), only one conversion thread exists at a time: a pandoc job
 * first ends the idle long-lived thread, and a new one is started and warmed up after it, so the
 * server never holds both (the job worker runs one conversion at a time). With more threads,
 * both kinds may run side by side and the long-lived threads stay.
 */
export class ConversionPool {
  private settings: ConversionSettings;
  private lightPool: Pool | null = null;
  private readonly pandocPools = new Set<Pool>();
  private warming: Promise<WarmUpReport> | null = null;
  /** Conversions asked for and not finished: a warm-up gives way to them. */
  private pending = 0;
  /** Serialises conversions when there is one thread (see the class comment). */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    readonly threads: number,
    settings: Partial<ConversionSettings> = {},
  ) {
    this.settings = { warmUp: false, ...settings };
  }

  /**
   * Applies the settings and, with `warmUp`, starts a thread and warms it up; resolves when it
   * is warm (a failed warm-up only makes the first conversion slower: it is logged by the caller).
   */
  async start(settings: Partial<ConversionSettings> = {}): Promise<WarmUpReport | null> {
    this.settings = { ...this.settings, ...settings };
    return this.settings.warmUp ? this.warmUp() : null;
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
    const run = (pool: Pool) =>
      pool.run(task, { transferList: [copy.buffer] }) as Promise<ConversionOutcome>;
    const pandoc = PANDOC_FORMATS.has(format);
    this.pending += 1;
    try {
      if (this.threads > 1) {
        return await (pandoc ? this.withPandocThread(run) : run(this.light()));
      }
      return await this.exclusively(async () => {
        if (!pandoc) return run(this.light());
        await this.endLightThreads();
        return this.withPandocThread(run);
      });
    } finally {
      this.pending -= 1;
      // After a pandoc job on one thread, warm a long-lived thread up again for the next upload
      // (not awaited: a conversion that comes meanwhile waits for one warm-up step at most).
      if (pandoc && this.threads === 1 && this.settings.warmUp && !this.closed) {
        void this.warmUp().catch(() => undefined);
      }
    }
  }

  /** Conversion threads alive now, by kind (for tests and diagnostics). */
  threadsAlive(): { light: number; pandoc: number } {
    let pandoc = 0;
    for (const pool of this.pandocPools) pandoc += pool.threads.length;
    return { light: this.lightPool?.threads.length ?? 0, pandoc };
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([
      this.endLightThreads(),
      ...[...this.pandocPools].map((pool) => pool.destroy()),
    ]);
  }

  private light(): Pool {
    if (this.closed) throw new Error('The conversion pool is closed.');
    this.lightPool ??= createPool({
      // With warm-up, one thread is started now and kept; without, threads start on first use.
      minThreads: this.settings.warmUp ? 1 : 0,
      maxThreads: this.threads,
      idleTimeout: 10 * 60_000,
    });
    return this.lightPool;
  }

  private warmUp(): Promise<WarmUpReport> {
    if (this.warming) return this.warming;
    const warming = (async () => {
      const start = performance.now();
      const pool = this.light();
      let conversions = 0;
      for (const format of WARM_UP) {
        if (this.pending > 0 || this.lightPool !== pool) break;
        await pool.run({ warmUp: format });
        conversions += 1;
      }
      return { conversions, seconds: (performance.now() - start) / 1000 };
    })().finally(() => {
      if (this.warming === warming) this.warming = null;
    });
    this.warming = warming;
    return warming;
  }

  /** Runs one task in a new pandoc thread, and ends the thread (and its memory) after it. */
  private async withPandocThread<T>(run: (pool: Pool) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('The conversion pool is closed.');
    const pool = createPool({ minThreads: 0, maxThreads: 1, idleTimeout: 0 });
    this.pandocPools.add(pool);
    try {
      return await run(pool);
    } finally {
      this.pandocPools.delete(pool);
      await pool.destroy();
    }
  }

  private async endLightThreads(): Promise<void> {
    const pool = this.lightPool;
    this.lightPool = null;
    // A warm-up in progress is cut short (its promise rejects; nobody needs it any more).
    await pool?.destroy();
  }

  private exclusively<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/**
 * The thread's code: from the bundle, its built twin (dist/convert-worker.mjs, beside main.mjs);
 * from the sources, an entry that registers tsx first.
 */
const WORKER_ENTRY = new URL(
  runningFromBundle ? './convert-worker.mjs' : './convert-worker-entry.mjs',
  import.meta.url,
).href;

function createPool(options: {
  minThreads: number;
  maxThreads: number;
  idleTimeout: number;
}): Pool {
  return new Piscina<WorkerTask, ConversionOutcome | WarmUpReport>({
    filename: WORKER_ENTRY,
    // No resourceLimits: any V8 heap limit (even 1 GB, or 1 GB with a 48–96 MB young
    // generation) made a book's DOCX conversion 15–50 % slower here. MAX_INPUT_BYTES bounds the
    // input instead.
    ...options,
  });
}
