import { eq, inArray } from 'drizzle-orm';
import type { Category, InviteType } from '@margins/common';
import type { AppContext } from '../context.ts';
import { detectFormat } from '../conversion/detect-format.ts';
import type { ConversionResult, SourceFormat } from '../conversion/types.ts';
import { schema } from '../db/index.ts';
import { byteaValue } from '../modules/manuscripts/bytea.ts';
import { newMediaId } from '../modules/media/service.ts';
import { cartographerNovel, smallHoursPoems, tagusLedgerStory } from './prose.ts';

interface DemoManuscript {
  authorHandle: string;
  title: string;
  summary: string;
  visibility: InviteType;
  category: Category;
  nsfw: boolean;
  genres: string[];
  fileName: string;
  contentType: string;
  text: () => string;
}

/** The demo authors' manuscripts: a long novel, a short story, poems and a private draft. */
const DEMO_MANUSCRIPTS: DemoManuscript[] = [
  {
    authorHandle: 'ada_quill',
    title: 'The Cartographer’s Silence',
    summary:
      'In the port city of Vell the streets move when no one is drawing them. Maren Holt, a guild cartographer, keeps leaving one corner of her map blank — until the blank corner starts drawing her.',
    visibility: 'public',
    category: 'fiction',
    nsfw: false,
    genres: ['Fantasy', 'Literary', 'Adventure'],
    fileName: 'the-cartographers-silence.md',
    contentType: 'text/markdown',
    text: () => cartographerNovel(),
  },
  {
    authorHandle: 'ada_quill',
    title: 'Small Hours',
    summary: 'Six short poems about maps, tides and the hours nobody charts.',
    visibility: 'logged_in',
    category: 'poetry',
    nsfw: false,
    genres: ['Lyric', 'Free Verse'],
    fileName: 'small-hours.html',
    contentType: 'application/octet-stream',
    text: () => smallHoursPoems(),
  },
  {
    authorHandle: 'tomas_reyes',
    title: 'The Tagus Ledger',
    summary:
      'A night-shift pharmacist is found in the river and forty tablets are missing from the ledger. Inspector Luísa Brandão has until the morning ferry. Contains drug use and violence.',
    visibility: 'public',
    category: 'fiction',
    nsfw: true,
    genres: ['Mystery', 'Thriller'],
    fileName: 'the-tagus-ledger.txt',
    contentType: 'text/plain',
    text: () => tagusLedgerStory(),
  },
  {
    authorHandle: 'tomas_reyes',
    title: 'Night Shift Notes',
    summary: 'Private notes from the hospital pharmacy, not ready for anyone yet.',
    visibility: 'private',
    category: 'non-fiction',
    nsfw: false,
    genres: ['Memoir'],
    fileName: 'night-shift-notes.md',
    contentType: 'text/markdown',
    text: () =>
      [
        '# Night Shift Notes',
        '',
        'The hospital at three in the morning is a different building. The corridors are longer, the lifts slower, and the vending machine on the second floor hums a note I have come to think of as *B-flat, exhausted*.',
        '',
        '## What the night asks for',
        '',
        'Mostly it asks for patience: a nurse who needs a dose checked twice, a doctor who needs the interaction table read aloud, a porter who needs someone to talk to for five minutes. I fill prescriptions. I also, it turns out, fill silences.',
        '',
        '* * *',
        '',
        'Somewhere in these notes is a novel. I can feel its weight the way you feel a full bottle in a dark cupboard, before you find the label.',
      ].join('\n'),
  },
];

/**
 * Converts and stores the demo manuscripts of the demo authors (run after the users exist):
 * each in the conversion threads, like an upload, with its original kept. Skips missing authors.
 */
export async function seedDemoManuscripts(ctx: AppContext): Promise<number> {
  const handles = [...new Set(DEMO_MANUSCRIPTS.map((demo) => demo.authorHandle))];
  const authors = await ctx.db
    .select({ id: schema.users.id, handle: schema.users.handle })
    .from(schema.users)
    .where(inArray(schema.users.handle, handles));
  const authorId = new Map(authors.map((author) => [author.handle, author.id]));
  const genreRows = await ctx.db.select().from(schema.genres);
  const genreId = new Map(genreRows.map((genre) => [genre.name, genre.id]));

  const converted: Array<{
    demo: DemoManuscript;
    userId: number;
    bytes: Buffer;
    format: SourceFormat;
    result: ConversionResult;
  }> = [];
  for (const demo of DEMO_MANUSCRIPTS) {
    const userId = authorId.get(demo.authorHandle);
    if (userId === undefined) continue;
    const bytes = Buffer.from(demo.text(), 'utf8');
    const format = detectFormat(demo.fileName, bytes);
    // Demo texts have no images: the image prefix is never used.
    const outcome = await ctx.converter.convert(bytes, format, 'demo');
    if (!outcome.ok) throw new Error(`Demo manuscript "${demo.title}": ${outcome.message}`);
    converted.push({ demo, userId, bytes, format, result: outcome.result });
  }

  await ctx.db.transaction(async (tx) => {
    for (const { demo, userId, bytes, format, result } of converted) {
      const [manuscript] = await tx
        .insert(schema.manuscripts)
        .values({
          userId,
          title: demo.title,
          summary: demo.summary,
          visibility: demo.visibility,
          category: demo.category,
          nsfw: demo.nsfw,
          inking: false,
          words: result.words,
        })
        .returning({ id: schema.manuscripts.id });
      const manuscriptId = manuscript!.id;
      const ids = demo.genres.map((name) => genreId.get(name)).filter((id) => id !== undefined);
      if (ids.length > 0) {
        await tx
          .insert(schema.manuscriptGenres)
          .values(ids.map((id) => ({ manuscriptId, genreId: id })));
      }
      const originalMediaId = newMediaId();
      await tx.insert(schema.media).values({
        id: originalMediaId,
        ownerId: userId,
        manuscriptId,
        contentType: demo.contentType,
        byteSize: bytes.byteLength,
        data: byteaValue(bytes),
      });
      const [version] = await tx
        .insert(schema.manuscriptVersions)
        .values({
          manuscriptId,
          number: 1,
          originalMediaId,
          sourceFormat: format,
          fileName: demo.fileName,
          html: result.html,
          toc: result.toc,
          words: result.words,
        })
        .returning({ id: schema.manuscriptVersions.id });
      await tx
        .update(schema.manuscripts)
        .set({ currentVersionId: version!.id })
        .where(eq(schema.manuscripts.id, manuscriptId));
    }
  });
  return converted.length;
}
