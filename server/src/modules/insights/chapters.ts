import { eq } from 'drizzle-orm';
import { parseFragment } from 'parse5';
import { defineCache } from '../../lib/cache/cache.ts';
import { schema, type Executor } from '../../db/index.ts';

/** A chapter: an h1–h2 section of the TOC, from its heading to the next one. */
export interface Chapter {
  /** The heading's block id (or the first block's, for text before any heading). */
  id: string;
  title: string;
  words: number;
  /** Index of its first block in the draft. */
  start: number;
  blockIds: string[];
}

/** A draft cut into chapters, with every block's chapter and words. */
export interface ChapterMap {
  chapters: Chapter[];
  /** Block id → index into chapters. */
  chapterOf: Map<string, number>;
  /** Block id → words in the block. */
  wordsOf: Map<string, number>;
  blockCount: number;
}

interface Parse5Node {
  nodeName: string;
  value?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: Parse5Node[];
}

function textOf(node: Parse5Node): string {
  if (node.nodeName === '#text') return node.value ?? '';
  return (node.childNodes ?? []).map(textOf).join(' ');
}

const countWords = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * Cuts a draft into chapters: the top-level blocks of the stored HTML (each has a stable id),
 * grouped under the TOC's h1 and h2 entries. Text before the first heading is a chapter of
 * its own ("Opening"); a draft without headings is one chapter.
 */
function chapterMap(
  html: string,
  toc: Array<{ id: string; level: number; text: string }>,
): ChapterMap {
  const fragment = parseFragment(html) as unknown as Parse5Node;
  const blocks: Array<{ id: string; words: number }> = [];
  for (const node of fragment.childNodes ?? []) {
    const id = node.attrs?.find((attribute) => attribute.name === 'id')?.value;
    if (id) blocks.push({ id, words: countWords(textOf(node)) });
  }
  const headings = new Map(
    toc.filter((entry) => entry.level <= 2).map((entry) => [entry.id, entry.text]),
  );
  const chapters: Chapter[] = [];
  const chapterOf = new Map<string, number>();
  const wordsOf = new Map<string, number>();
  blocks.forEach((block, index) => {
    const title = headings.get(block.id);
    if (title !== undefined || chapters.length === 0) {
      chapters.push({
        id: block.id,
        title: title ?? (headings.size > 0 ? 'Opening' : 'The whole text'),
        words: 0,
        start: index,
        blockIds: [],
      });
    }
    const chapter = chapters[chapters.length - 1]!;
    chapter.words += block.words;
    chapter.blockIds.push(block.id);
    chapterOf.set(block.id, chapters.length - 1);
    wordsOf.set(block.id, block.words);
  });
  return { chapters, chapterOf, wordsOf, blockCount: blocks.length };
}

const chapterMaps = defineCache<ChapterMap>({
  name: 'chapter_maps',
  dependsOn: { immutable: 'keyed by a draft’s id: a stored draft never changes' },
  limit: { entries: 16 },
});

/** The chapters of a manuscript's current draft, cached by version id (drafts never change). */
export async function currentChapters(
  db: Executor,
  manuscript: { currentVersionId: number | null },
): Promise<ChapterMap> {
  const versionId = manuscript.currentVersionId;
  if (versionId === null) {
    return { chapters: [], chapterOf: new Map(), wordsOf: new Map(), blockCount: 0 };
  }
  return chapterMaps.shared().get(String(versionId), async () => {
    const [version] = await db
      .select({ html: schema.manuscriptVersions.html, toc: schema.manuscriptVersions.toc })
      .from(schema.manuscriptVersions)
      .where(eq(schema.manuscriptVersions.id, versionId));
    return chapterMap(version?.html ?? '', version?.toc ?? []);
  });
}
