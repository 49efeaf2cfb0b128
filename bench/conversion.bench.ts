// Conversion benchmark on the ~150k-word test novel, in every format.
//   npx tsx bench/conversion.bench.ts
// Targets: every format < 12 s; DOCX ≤ 1.5 × raw mammoth on the same file; peak RSS < 600 MB.
// Each format runs in a fresh worker thread, so that each peak is that format's own. The worker
// first converts the small fixture of the same format, as a long-lived worker would be warm.
// The book is generated on first run (bench/fixtures/out/); DOCX, ODT and RTF need LibreOffice.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { WorkerReport, WorkerTask } from './conversion-worker.ts';
import {
  ensureBigBook,
  findSoffice,
  FORMATS,
  OFFICE_FORMATS,
  SMALL_FIXTURES_DIR,
} from './fixtures/generate.ts';

const MAX_SECONDS = 12;
const MAX_DOCX_RATIO = 1.5;
const MAX_RSS_MB = 600;

const peakRssMb = () => process.resourceUsage().maxRSS / 1024;

/** Starts a worker on a TypeScript file: the worker registers tsx before importing it. */
function runWorker(task: WorkerTask): Promise<WorkerReport> {
  const tsx = import.meta.resolve('tsx/esm/api');
  const script = new URL('./conversion-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(script)}); });`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: task });
    worker.once('message', (report: WorkerReport) => resolve(report));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`worker for ${task.format} exited with ${code}`));
    });
  });
}

async function main() {
  console.log('Preparing the 150k-word book (generated once into bench/fixtures/out/)…');
  const book = ensureBigBook();
  if (book.missingOffice) {
    console.log(
      findSoffice() === null
        ? 'LibreOffice is not installed (apt-get install -y libreoffice-writer-nogui): DOCX, ODT and RTF are skipped.'
        : 'LibreOffice failed to write DOCX/ODT/RTF: those formats are skipped.',
    );
  }
  const formats = FORMATS.filter(
    (format) => !(book.missingOffice && (OFFICE_FORMATS as readonly string[]).includes(format)),
  );
  const reports: Array<WorkerReport & { peakRssMb: number }> = [];
  for (const format of formats) {
    const warmUp = join(SMALL_FIXTURES_DIR, `small.${format}`);
    const report = await runWorker({
      format,
      path: join(book.dir, `${book.name}.${format}`),
      warmUpPath: existsSync(warmUp) ? warmUp : null,
    });
    reports.push({ ...report, peakRssMb: peakRssMb() });
  }
  printTable(reports);
}

function printTable(reports: Array<WorkerReport & { peakRssMb: number }>) {
  const header = [
    'format',
    'seconds',
    'words',
    'headings',
    'images',
    'html KB',
    'peak RSS MB',
    'target',
    'note',
  ];
  const lines = reports.map((report) => [
    report.format,
    report.seconds.toFixed(2),
    String(report.words),
    String(report.headings),
    String(report.images),
    report.htmlKb.toFixed(0),
    report.peakRssMb.toFixed(0),
    report.seconds < MAX_SECONDS ? `ok (< ${MAX_SECONDS} s)` : `SLOW (≥ ${MAX_SECONDS} s)`,
    report.rawMammothSeconds !== null ? `raw mammoth ${report.rawMammothSeconds.toFixed(2)} s` : '',
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...lines.map((line) => (line[i] ?? '').length)),
  );
  const row = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  console.log('');
  console.log(row(header));
  console.log(row(widths.map((width) => '-'.repeat(width))));
  for (const line of lines) console.log(row(line));
  console.log('');

  const docx = reports.find((report) => report.format === 'docx');
  if (docx?.rawMammothSeconds) {
    const ratio = docx.seconds / docx.rawMammothSeconds;
    console.log(
      `DOCX vs raw mammoth.convertToHtml: ${docx.seconds.toFixed(2)} s / ${docx.rawMammothSeconds.toFixed(2)} s = ${ratio.toFixed(2)}× ${ratio <= MAX_DOCX_RATIO ? `ok (≤ ${MAX_DOCX_RATIO}×)` : `OVER TARGET (> ${MAX_DOCX_RATIO}×)`}`,
    );
  }
  const rss = peakRssMb();
  console.log(
    `Peak RSS of the process (main + one worker at a time): ${rss.toFixed(0)} MB ${rss < MAX_RSS_MB ? `ok (< ${MAX_RSS_MB} MB)` : `OVER TARGET (≥ ${MAX_RSS_MB} MB)`}`,
  );
}

await main();
