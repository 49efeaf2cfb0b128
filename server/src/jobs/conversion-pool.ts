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

/**
 * What a long-lived thread is warmed up with: each converter once (loads its modules), then DOCX
 * a few more times, as V8 optimises a function only after it has run hot for a while. One task
 * each, so that real work waits for one of them at most (about 0.1–0.3 s), not for all.
 */
const WARM_UP: SourceFormat[] = ['docx', 'md', 'txt', 'html', 'docx', 'docx', 'docx'];

type Pool = Piscina<WorkerTask, ConversionOutcome | WarmUpReport>;

/** See ConversionSettings.timeoutSeconds. */
const DEFAULT_TIMEOUT_SECONDS = 60;

const TOO_SLOW: ConversionOutcome = {
  ok: false,
  code: 'too_slow',
  message:
    'Converting this document took too long, and we stopped. Open it in your word processor, save it again (as DOCX if you can), and upload the new file.',
};

/**
 * The worker threads that convert documents (CPU-heavy: a book takes 0.1–0.5 s), so the event
 * loop never stalls. Threads are long-lived: they keep the converters loaded and optimised by V8
 * (~100 MB each). With `warmUp`, one is started and warmed up at start, so that the first upload
 * does not pay for thread start, module loading and JIT warm-up. Every format runs in the same
 * threads (ODT and RTF have their own readers; pandoc-wasm, which took ~300 MB a thread, is gone).
 */
export class ConversionPool {
  private settings: ConversionSettings;
  private pool: Pool | null = null;
  private warming: Promise<WarmUpReport> | null = null;
  /** Conversions asked for and not finished: a warm-up gives way to them. */
  private pending = 0;
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
    this.pending += 1;
    const timeoutSeconds = this.settings.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    try {
      return (await this.piscina().run(task, {
        transferList: [copy.buffer],
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      })) as ConversionOutcome;
    } catch (error) {
      // Piscina ends the thread that was running it; the next conversion gets a new one.
      if (error instanceof Error && error.name === 'AbortError') return TOO_SLOW;
      throw error;
    } finally {
      this.pending -= 1;
    }
  }

  /** Conversion threads alive now (for tests and diagnostics). */
  threadsAlive(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Ends the threads now when nothing is converting and no warm thread is wanted: after the
   * demo seed's conversions at start, so the idle server does not keep a thread (~75 MB) for
   * the 10 minutes of idleTimeout. The next conversion starts a new one.
   */
  async releaseIdleThreads(): Promise<void> {
    if (this.settings.warmUp || this.pending > 0 || this.warming || !this.pool) return;
    const pool = this.pool;
    this.pool = null;
    await pool.destroy();
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = null;
    // A warm-up in progress is cut short (its promise rejects; nobody needs it any more).
    await pool?.destroy();
  }

  private piscina(): Pool {
    if (this.closed) throw new Error('The conversion pool is closed.');
    this.pool ??= createPool({
      // With warm-up, one thread is started now and kept; without, threads start on first use.
      minThreads: this.settings.warmUp ? 1 : 0,
      maxThreads: this.threads,
      idleTimeout: 10 * 60_000,
    });
    return this.pool;
  }

  private warmUp(): Promise<WarmUpReport> {
    if (this.warming) return this.warming;
    const warming = (async () => {
      const start = performance.now();
      const pool = this.piscina();
      let conversions = 0;
      for (const format of WARM_UP) {
        if (this.pending > 0 || this.pool !== pool) break;
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
}

/**
 * The thread's code: from the bundle, its built twin (dist/convert-worker.mjs, beside server.cjs);
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
