import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { schema, type Executor } from '../db/index.ts';
import { anchorAt } from '../modules/comments/anchoring.ts';
import { cachedDocumentText } from '../modules/comments/document-text.ts';

/** The list the report modal offers (the migration stores the same; kept here for old databases). */
const REPORT_REASONS = [
  ['Spam or advertising', 'Promotes something, or repeats itself to get attention.', false],
  ['Harassment or hate', 'Attacks or demeans a person or a group.', false],
  ['Spoilers without warning', 'Gives away what happens later in the manuscript.', false],
  ['Inappropriate or explicit content', 'Sexual, violent or otherwise unsuitable material.', false],
  ['Plagiarism or stolen work', "Copies someone else's writing without credit.", false],
  ['Something else', 'Tell us what is wrong in the description.', true],
] as const;

interface DemoThread {
  /** Which paragraph (of those with a full sentence), counted from the start. */
  paragraph: number;
  highlighter: string;
  comments: Array<{ by: string; text: string; votes?: Record<string, 1 | -1> }>;
}

/** Margin conversations on the demo manuscripts, by the demo readers and authors. */
const DEMO_THREADS: Record<string, { privateComments?: boolean; threads: DemoThread[] }> = {
  'The Cartographer’s Silence': {
    threads: [
      {
        paragraph: 0,
        highlighter: 'june_reads',
        comments: [
          {
            by: 'june_reads',
            text: 'What an opening line — I can smell the cedar. Hooked already.',
            votes: { sam_inkwell: 1, ada_quill: 1 },
          },
          {
            by: 'ada_quill',
            text: 'Thank you! The cedar comes back in chapter 9, keep an eye out.',
            votes: { june_reads: 1 },
          },
        ],
      },
      {
        paragraph: 3,
        highlighter: 'sam_inkwell',
        comments: [
          {
            by: 'sam_inkwell',
            text: 'I lost track of who is speaking here. Maybe a dialogue tag?',
            votes: { june_reads: 1, tomas_reyes: 1 },
          },
          { by: 'june_reads', text: 'Same for me — I read it twice.', votes: { sam_inkwell: 1 } },
        ],
      },
      {
        paragraph: 7,
        highlighter: 'june_reads',
        comments: [
          {
            by: 'june_reads',
            text: 'This image of the streets rearranging themselves is my favourite so far.',
            votes: { ada_quill: 1 },
          },
        ],
      },
      {
        paragraph: 12,
        highlighter: 'tomas_reyes',
        comments: [
          {
            by: 'tomas_reyes',
            text: 'Pacing slows a little here; could this paragraph be split?',
            votes: { june_reads: -1, sam_inkwell: 1 },
          },
        ],
      },
      {
        paragraph: 20,
        highlighter: 'sam_inkwell',
        comments: [{ by: 'sam_inkwell', text: 'Typo? "lamp-black" vs "lampblack" earlier.' }],
      },
    ],
  },
  'Small Hours': {
    privateComments: true,
    threads: [
      {
        paragraph: 0,
        highlighter: 'june_reads',
        comments: [
          { by: 'june_reads', text: 'The rhythm of this stanza is lovely read aloud.' },
          { by: 'ada_quill', text: 'I rewrote it six times, so that means a lot.' },
        ],
      },
      {
        paragraph: 2,
        highlighter: 'sam_inkwell',
        comments: [{ by: 'sam_inkwell', text: 'Not sure the tide metaphor lands for me here.' }],
      },
    ],
  },
  'The Tagus Ledger': {
    threads: [
      {
        paragraph: 1,
        highlighter: 'june_reads',
        comments: [
          {
            by: 'june_reads',
            text: 'The ferry timetable as a ticking clock — great device.',
            votes: { ada_quill: 1 },
          },
        ],
      },
    ],
  },
};

/**
 * Highlights, comments and votes on the demo manuscripts (after the manuscripts seed), with
 * Small Hours set to private comments; and the report reasons. Skips what is missing.
 */
export async function seedDemoComments(ctx: AppContext): Promise<number> {
  const people = await ctx.db
    .select({ id: schema.users.id, handle: schema.users.handle })
    .from(schema.users)
    .where(isNotNull(schema.users.handle));
  const userId = new Map(people.map((person) => [person.handle!, person.id]));
  const manuscripts = await ctx.db
    .select({ manuscript: schema.manuscripts, html: schema.manuscriptVersions.html })
    .from(schema.manuscripts)
    .innerJoin(
      schema.manuscriptVersions,
      eq(schema.manuscriptVersions.id, schema.manuscripts.currentVersionId),
    )
    .where(inArray(schema.manuscripts.title, Object.keys(DEMO_THREADS)));
  let made = 0;
  await ctx.db.transaction(async (tx) => {
    await seedReportReasons(tx);
    for (const { manuscript, html } of manuscripts) {
      const demo = DEMO_THREADS[manuscript.title]!;
      if (demo.privateComments) {
        await tx
          .update(schema.manuscripts)
          .set({ privateComments: true })
          .where(eq(schema.manuscripts.id, manuscript.id));
      }
      const doc = cachedDocumentText(manuscript.currentVersionId!, () => html);
      const sentences = doc.blocks.flatMap((block) => {
        const text = doc.text.slice(block.start, block.end);
        const end = text.search(/[.!?](\s|$)/);
        return end > 20 ? [{ start: block.start, end: block.start + end + 1 }] : [];
      });
      for (const [index, thread] of demo.threads.entries()) {
        const sentence = sentences[thread.paragraph];
        const highlighter = userId.get(thread.highlighter);
        if (!sentence || highlighter === undefined) continue;
        const anchor = anchorAt(doc, sentence.start, sentence.end);
        const selectionId = `seed-${manuscript.id}-${index}`;
        await tx.insert(schema.highlights).values({
          id: selectionId,
          manuscriptId: manuscript.id,
          versionId: manuscript.currentVersionId,
          userId: highlighter,
          ...anchor,
          selectedText: anchor.quoteExact,
          colour: index % 8,
        });
        for (const entry of thread.comments) {
          const authorId = userId.get(entry.by);
          if (authorId === undefined) continue;
          const [comment] = await tx
            .insert(schema.comments)
            .values({ manuscriptId: manuscript.id, selectionId, authorId, body: entry.text })
            .returning({ id: schema.comments.id });
          made += 1;
          const votes = Object.entries(entry.votes ?? {}).flatMap(([handle, value]) => {
            const voter = userId.get(handle);
            return voter === undefined ? [] : [{ commentId: comment!.id, userId: voter, value }];
          });
          if (votes.length === 0) continue;
          await tx.insert(schema.commentVotes).values(votes);
          await tx
            .update(schema.comments)
            .set({ rank: votes.reduce((sum, vote) => sum + vote.value, 0) })
            .where(and(eq(schema.comments.id, comment!.id)));
        }
      }
    }
  });
  return made;
}

/** The report reasons, added when missing (the migration already stores them). */
async function seedReportReasons(db: Executor): Promise<void> {
  await db
    .insert(schema.reportReasons)
    .values(
      REPORT_REASONS.map(([reason, description, descriptionRequired], index) => ({
        reason,
        description,
        descriptionRequired,
        position: index + 1,
      })),
    )
    .onConflictDoNothing();
}
