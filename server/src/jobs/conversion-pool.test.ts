import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { convertDocument } from '../conversion/index.ts';
import { ConversionPool } from './conversion-pool.ts';
import { warmUpDocx, warmUpHtml, warmUpMarkdown, warmUpText } from './warm-up-document.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../conversion/fixtures/${name}`, import.meta.url));

let pool: ConversionPool | null = null;
afterEach(async () => {
  await pool?.close();
  pool = null;
});

describe('the warm-up documents', () => {
  it('convert like an author’s file: headings, italics, bold and scene breaks', async () => {
    for (const [format, bytes] of [
      ['docx', warmUpDocx(130)],
      ['md', warmUpMarkdown(130)],
      ['txt', warmUpText(130)],
      ['html', warmUpHtml(130)],
    ] as const) {
      const result = await convertDocument(bytes, format);
      expect(result.toc.filter((entry) => entry.level === 1).map((entry) => entry.text)).toEqual([
        'Chapter 1',
        'Chapter 2',
        'Chapter 3',
      ]);
      expect(result.words).toBeGreaterThan(130 * 40);
      expect(result.html).toMatch(/<hr [^>]*class="scene-break"/);
      if (format !== 'txt') {
        expect(result.html).toContain('<em>quietly</em>');
        expect(result.html).toContain('<strong>never</strong>');
      }
    }
  });
});

describe('ConversionPool', () => {
  it('warms a thread up at start, and converts in it', async () => {
    pool = new ConversionPool(1);
    const report = await pool.start({ warmUp: true });
    expect(report?.conversions).toBe(7);
    expect(pool.threadsAlive()).toBe(1);
    const outcome = await pool.convert(fixture('small.docx'), 'docx', 'p');
    expect(outcome.ok && outcome.result.words).toBeGreaterThan(1000);
    expect(pool.threadsAlive()).toBe(1);
  });

  it('starts no thread without warm-up until there is work', async () => {
    pool = new ConversionPool(1);
    expect(await pool.start({ warmUp: false })).toBeNull();
    expect(pool.threadsAlive()).toBe(0);
  });

  it('converts every format in the same long-lived thread, several documents at once', async () => {
    pool = new ConversionPool(1);
    await pool.start({ warmUp: true });
    const outcomes = await Promise.all(
      (['odt', 'rtf', 'docx', 'md', 'txt', 'html'] as const).map((format) =>
        pool!.convert(fixture(`small.${format}`), format, format),
      ),
    );
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true, true, true, true, true]);
    expect(pool.threadsAlive()).toBe(1);
  });

  it('answers a document it cannot convert with the converter’s error', async () => {
    pool = new ConversionPool(1);
    const outcome = await pool.convert(new TextEncoder().encode('{\\rtf1 broken'), 'docx', 'p');
    expect(outcome).toMatchObject({ ok: false, code: 'corrupt' });
  });
});

describe('a conversion that takes too long', () => {
  it('is stopped with a message, and the next conversion gets a fresh thread', async () => {
    pool = new ConversionPool(1, { timeoutSeconds: 0.001 });
    const slow = await pool.convert(warmUpDocx(2000), 'docx', 'p');
    expect(slow).toMatchObject({ ok: false, code: 'too_slow' });
    expect(slow.ok === false && slow.message).toMatch(/took too long/);
    await pool.start({ timeoutSeconds: 60 });
    const next = await pool.convert(fixture('small.docx'), 'docx', 'q');
    expect(next.ok).toBe(true);
  });
});
