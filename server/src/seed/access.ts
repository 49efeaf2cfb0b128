import { inArray, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { schema } from '../db/index.ts';
import type { StoredAnswers, StoredQuestion } from '../db/schema-access.ts';
import { newInviteCode } from '../modules/invites/shared.ts';
import { scoreAnswers } from '../modules/surveys/scoring.ts';

const NIGHT_SHIFT = 'Night Shift Notes';
const NOVEL = 'The Cartographer’s Silence';
const POEMS = 'Small Hours';

/** Tomás screens readers of his private notes with this questionnaire. */
const QUESTIONNAIRE: Record<string, StoredQuestion> = {
  shifts: {
    question: 'Have you ever worked night shifts?',
    questionType: 'multipleChoice',
    order: 1,
    allowComments: true,
    choices: [
      { choiceId: 'yes', choice: 'Yes', correctChoice: true },
      { choiceId: 'no', choice: 'No', correctChoice: false },
    ],
  },
  genres: {
    question: 'Which of these do you enjoy reading?',
    questionType: 'multipleAnswer',
    order: 2,
    allowComments: false,
    choices: [
      { choiceId: 'memoir', choice: 'Memoir', correctChoice: true },
      { choiceId: 'essays', choice: 'Essays', correctChoice: true },
      { choiceId: 'space', choice: 'Space opera', correctChoice: false },
    ],
  },
  why: {
    question: 'What would you like to get out of these notes?',
    questionType: 'shortAnswer',
    order: 3,
    allowComments: false,
    choices: [],
  },
};

/** Ada asks readers of her novel how it went. */
const FEEDBACK: Record<string, StoredQuestion> = {
  pacing: {
    question: 'How did the pacing feel?',
    questionType: 'multipleChoice',
    order: 1,
    allowComments: true,
    choices: [
      { choiceId: 'slow', choice: 'Too slow', correctChoice: false },
      { choiceId: 'right', choice: 'About right', correctChoice: false },
      { choiceId: 'fast', choice: 'Too fast', correctChoice: false },
    ],
  },
  change: {
    question: 'If you could change one thing, what would it be?',
    questionType: 'shortAnswer',
    order: 2,
    allowComments: false,
    choices: [],
  },
};

const JUNE_QUESTIONNAIRE: StoredAnswers = {
  shifts: 'yes',
  'comments-shifts': 'Three years on a hospital ward, mostly nights.',
  genres: ['memoir', 'essays'],
  why: 'I want to see how the night shift becomes a novel.',
};
const SAM_QUESTIONNAIRE: StoredAnswers = {
  shifts: 'yes',
  genres: ['memoir', 'space'],
  why: 'Curious, mostly.',
};

/**
 * Who may read what in the demo (after the manuscripts seed): Tomás's private notes screened by
 * a questionnaire (June approved by her score, Sam awaiting Tomás's approval), a one-time link
 * and an e-mail invite waiting for a sign-up; Ada's novel with a feedback survey both readers
 * answered, reads with progress, and a pending invite on June's dashboard. Skips what is missing.
 */
export async function seedDemoAccess(ctx: AppContext): Promise<number> {
  const people = await ctx.db
    .select({ id: schema.users.id, handle: schema.users.handle })
    .from(schema.users)
    .where(isNotNull(schema.users.handle));
  const userId = new Map(people.map((person) => [person.handle!, person.id]));
  const manuscripts = await ctx.db
    .select({ id: schema.manuscripts.id, title: schema.manuscripts.title })
    .from(schema.manuscripts)
    .where(inArray(schema.manuscripts.title, [NIGHT_SHIFT, NOVEL, POEMS]));
  const manuscriptId = new Map(manuscripts.map((row) => [row.title, row.id]));
  const [june, sam, ada, tomas] = ['june_reads', 'sam_inkwell', 'ada_quill', 'tomas_reyes'].map(
    (handle) => userId.get(handle),
  );
  const [notes, novel, poems] = [NIGHT_SHIFT, NOVEL, POEMS].map((title) => manuscriptId.get(title));
  if (!june || !sam || !ada || !tomas || !notes || !novel || !poems) return 0;

  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  await ctx.db.transaction(async (tx) => {
    // Tomás's private notes: invites, a one-time link, an e-mail invite, the questionnaire.
    const invite = (userIdValue: number, hours: number) => ({
      manuscriptId: notes,
      kind: 'user' as const,
      inviteType: 'private' as const,
      invitedUserId: userIdValue,
      code: newInviteCode(),
      status: 'accepted' as const,
      createdById: tomas,
      respondedAt: hoursAgo(hours - 1),
      createdAt: hoursAgo(hours),
    });
    await tx.insert(schema.invites).values([
      invite(june, 48),
      invite(sam, 30),
      {
        manuscriptId: notes,
        kind: 'link',
        inviteType: 'private',
        code: newInviteCode(),
        oneTime: true,
        status: 'pending',
        createdById: tomas,
      },
      {
        manuscriptId: notes,
        kind: 'email',
        inviteType: 'private',
        email: 'night.reader@example.com',
        code: newInviteCode(),
        status: 'pending',
        createdById: tomas,
      },
      // Ada recommends her poems to June (pending: on June's dashboard).
      {
        manuscriptId: poems,
        kind: 'user',
        inviteType: 'logged_in',
        invitedUserId: june,
        code: newInviteCode(),
        status: 'pending',
        createdById: ada,
      },
      // The novel's standing public share link.
      {
        manuscriptId: novel,
        kind: 'link',
        inviteType: 'public',
        code: newInviteCode(),
        status: 'pending',
        createdById: ada,
      },
    ]);
    const [questionnaire] = await tx
      .insert(schema.surveys)
      .values({
        manuscriptId: notes,
        surveyType: 'questionaire',
        questions: QUESTIONNAIRE,
        autoApprove: true,
        autoApprovePercent: 85,
      })
      .returning({ id: schema.surveys.id });
    const [feedback] = await tx
      .insert(schema.surveys)
      .values({ manuscriptId: novel, surveyType: 'feedback', questions: FEEDBACK })
      .returning({ id: schema.surveys.id });
    await tx.insert(schema.surveyAnswers).values([
      {
        surveyId: questionnaire!.id,
        userId: june,
        answers: JUNE_QUESTIONNAIRE,
        score: scoreAnswers(QUESTIONNAIRE, JUNE_QUESTIONNAIRE),
        approvedAt: hoursAgo(46),
        createdAt: hoursAgo(46),
      },
      {
        surveyId: questionnaire!.id,
        userId: sam,
        answers: SAM_QUESTIONNAIRE,
        score: scoreAnswers(QUESTIONNAIRE, SAM_QUESTIONNAIRE),
        createdAt: hoursAgo(28),
      },
      {
        surveyId: feedback!.id,
        userId: june,
        answers: {
          pacing: 'right',
          'comments-pacing': 'Chapter 9 flew by.',
          change: 'More of the river guild, please.',
        },
        createdAt: hoursAgo(20),
      },
      {
        surveyId: feedback!.id,
        userId: sam,
        answers: { pacing: 'slow', change: 'Tighten the first two chapters.' },
        createdAt: hoursAgo(6),
      },
    ]);
    // Reads, with how far each reader got.
    const read = (
      user: number,
      manuscript: number,
      percent: number | null,
      blockIdx: number | null,
    ) => ({
      userId: user,
      manuscriptId: manuscript,
      progressPercent: percent,
      progressBlockIdx: blockIdx,
      progressUpdatedAt: percent === null ? null : hoursAgo(2),
    });
    await tx
      .insert(schema.bookmarks)
      .values([
        read(june, novel, 62, 480),
        read(june, notes, 40, 3),
        read(sam, novel, 15, 110),
        read(sam, notes, null, null),
        read(sam, poems, 100, 12),
      ]);
  });
  return 1;
}
