import { ConversionError } from './errors.ts';
import { conversionResult, ImageCollector } from './images.ts';
import { normaliseHtml } from './normalise/index.ts';
import { findOdtTitle } from './odt-title.ts';
import { openPackage } from './package-guard.ts';
import { prepareRtfForPandoc } from './rtf-prepare.ts';
import type { ConversionResult } from './types.ts';

/** The part of pandoc-wasm's API used here (the package ships no types). */
interface PandocModule {
  convert(
    options: Record<string, unknown>,
    stdin: string | null,
    files: Record<string, Blob | string>,
  ): Promise<PandocResult>;
}

interface PandocResult {
  stdout: string;
  stderr: string;
  mediaFiles: Record<string, Blob>;
}

// Importing pandoc-wasm compiles and starts pandoc (about half a second), once per thread.
let pandocModule: Promise<PandocModule> | null = null;
// One pandoc instance has one in-memory file system: run one conversion at a time.
let queue: Promise<unknown> = Promise.resolve();

/** Loads pandoc into this thread, if not done yet. */
export function loadPandoc(): Promise<PandocModule> {
  // A specifier in a variable keeps TypeScript from looking for the package's (missing) types.
  const specifier = 'pandoc-wasm';
  pandocModule ??= import(specifier) as Promise<PandocModule>;
  return pandocModule;
}

function runExclusively<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

const MEDIA_FOLDER = 'media';

/**
 * ODT or RTF → normalised HTML with pandoc (WebAssembly). Blocks the thread for seconds on a
 * book, so callers run it in a worker thread.
 */
export async function convertWithPandoc(
  bytes: Uint8Array,
  format: 'odt' | 'rtf',
  imageUrl: (imageId: string) => string,
): Promise<ConversionResult> {
  let input = bytes;
  let titleParagraph: string | null = null;
  if (format === 'odt') {
    const archive = openPackage(bytes, 'odt');
    titleParagraph = findOdtTitle(archive.readText('content.xml') ?? '');
  } else {
    assertRtf(bytes);
    const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    input = new Uint8Array(Buffer.from(prepareRtfForPandoc(source), 'latin1'));
  }

  const inputName = `input.${format}`;
  const pandoc = await loadPandoc();
  let result: PandocResult;
  try {
    result = await runExclusively(() =>
      pandoc.convert(
        {
          from: format,
          to: 'html5',
          'input-files': [inputName],
          'extract-media': MEDIA_FOLDER,
          wrap: 'none',
        },
        null,
        { [inputName]: new Blob([input as Uint8Array<ArrayBuffer>]) },
      ),
    );
  } catch (error) {
    // pandoc itself failed (a WebAssembly trap, such as running out of memory).
    throw unreadable(format, error);
  }
  if (result.stdout.trim() === '') throw unreadable(format, new Error(result.stderr));

  const images = new ImageCollector(imageUrl);
  const sources = new Map<string, string>();
  for (const [path, blob] of Object.entries(result.mediaFiles)) {
    const url = images.add(new Uint8Array(await blob.arrayBuffer()));
    if (url === null) continue;
    // pandoc writes the path it extracted to, with or without a leading "./".
    sources.set(path, url);
    sources.set(`./${path}`, url);
  }
  return conversionResult(
    normaliseHtml(result.stdout, { images: sources, titleParagraph, trustedMarkup: true }),
    images,
  );
}

function unreadable(format: 'odt' | 'rtf', cause: unknown): ConversionError {
  return new ConversionError(
    'corrupt',
    `The ${format.toUpperCase()} file could not be read (it may be damaged). Open it in your word processor, save it again, and upload the new file.`,
    { cause },
  );
}

function assertRtf(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 64)).toString(
    'latin1',
  );
  if (!/^\s*(?:\ufeff|ï»¿)?\s*\{\\rtf/.test(head)) {
    throw new ConversionError(
      'corrupt',
      'The file is not a valid RTF document. Open it in your word processor, save it again as .rtf, and upload that.',
    );
  }
}
