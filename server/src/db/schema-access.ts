import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { users } from './schema-accounts.ts';
import { manuscripts } from './schema-manuscripts.ts';

// Kept in step with common/src (the schema file stays free of app imports).
const VISIBILITIES = ['private', 'restricted', 'logged_in', 'public'] as const;
const INVITE_KINDS = ['user', 'email', 'link', 'request', 'redemption'] as const;
const INVITE_STATUSES = [
  'pending',
  'accepted',
  'rejected',
  'requested',
  'approved',
  'refused',
] as const;
const SURVEY_TYPES = ['questionaire', 'feedback'] as const;

/** A question of a survey, keyed by its id in `surveys.questions` (SPEC §3). */
export interface StoredQuestion {
  question: string;
  questionType: 'multipleChoice' | 'multipleAnswer' | 'shortAnswer';
  order: number;
  allowComments: boolean;
  choices: Array<{ choiceId: string; choice: string; correctChoice: boolean }>;
}

/** Question id → a choice id, a list of choice ids, or text; `comments-{id}` → text. */
export type StoredAnswers = Record<string, string | string[]>;

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

/**
 * Who may read a private or restricted manuscript, and how they came to (SPEC §4):
 * - `user`: the author invited an account (by handle or e-mail); pending until accepted.
 * - `email`: the author invited an address without an account; bound to the account that
 *   verifies that address (or opens the mailed link), then it behaves like `user`.
 * - `link`: a share link (/share/{code}); a one-time link is redeemed by its first user.
 * - `redemption`: a reader who came in through a link (deleted with the link).
 * - `request`: a reader asked for access to a restricted manuscript; approved or refused.
 * A user has at most one row per manuscript (their relation to it); links have no user.
 */
export const invites = pgTable(
  'invites',
  {
    id: serial('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: INVITE_KINDS }).notNull(),
    /** The manuscript's invite type when the invite (or link) was made. */
    inviteType: text('invite_type', { enum: VISIBILITIES }).notNull(),
    /** The reader: invited, claimed, redeemed or requesting; null for links and open e-mail invites. */
    invitedUserId: integer('invited_user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The address an e-mail invite went to (lower case). */
    email: text('email'),
    /** Unguessable: the share link /share/{code} (every invite has one). */
    code: text('code').notNull(),
    /** A link that only its first user may redeem (private manuscripts only). */
    oneTime: boolean('one_time').notNull().default(false),
    redeemedAt: timestamp('redeemed_at', { withTimezone: true }),
    redeemedById: integer('redeemed_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** The link a redemption came through: deleting the link removes that access too. */
    viaInviteId: integer('via_invite_id').references((): AnyPgColumn => invites.id, {
      onDelete: 'cascade',
    }),
    status: text('status', { enum: INVITE_STATUSES }).notNull(),
    /** The author who invited, or the reader who requested. */
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** When it was accepted, rejected, approved or refused. */
    respondedAt: timestamp('responded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('invites_code_unique').on(table.code),
    uniqueIndex('invites_manuscript_user_unique')
      .on(table.manuscriptId, table.invitedUserId)
      .where(sql`${table.invitedUserId} is not null`),
    index('invites_user_idx').on(table.invitedUserId),
    index('invites_manuscript_idx').on(table.manuscriptId),
    index('invites_email_idx').on(table.email),
  ],
);

/** A user's reads (bookmarks), with how far they got. */
export const bookmarks = pgTable(
  'bookmarks',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** The furthest block (paragraph) index reached, or null before any progress. */
    progressBlockIdx: integer('progress_block_idx'),
    /** The furthest percentage of the text reached (0–100), or null. */
    progressPercent: doublePrecision('progress_percent'),
    progressUpdatedAt: timestamp('progress_updated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('bookmarks_user_manuscript_unique').on(table.userId, table.manuscriptId),
    index('bookmarks_manuscript_idx').on(table.manuscriptId),
  ],
);

/** A manuscript's questionnaire (the reading gate) or feedback survey: one of each at most. */
export const surveys = pgTable(
  'surveys',
  {
    id: serial('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    surveyType: text('survey_type', { enum: SURVEY_TYPES }).notNull(),
    questions: jsonb('questions').$type<Record<string, StoredQuestion>>().notNull(),
    /** Questionnaire only: approve an answer whose score reaches autoApprovePercent. */
    autoApprove: boolean('auto_approve').notNull().default(false),
    autoApprovePercent: integer('auto_approve_percent').notNull().default(85),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('surveys_manuscript_type_unique').on(table.manuscriptId, table.surveyType),
  ],
);

/** A reader's answers to a survey: one per reader, final once submitted. */
export const surveyAnswers = pgTable(
  'survey_answers',
  {
    id: serial('id').primaryKey(),
    surveyId: integer('survey_id')
      .notNull()
      .references(() => surveys.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answers: jsonb('answers').$type<StoredAnswers>().notNull(),
    /** Questionnaire: percent of scored questions answered right; null when none is scored. */
    score: doublePrecision('score'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** The author who approved; null with approvedAt set means approved by the score. */
    approvedById: integer('approved_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('survey_answers_survey_user_unique').on(table.surveyId, table.userId),
    index('survey_answers_user_idx').on(table.userId),
  ],
);

/**
 * Invite mails per manuscript and invitee, so that inviting again (after deleting the invite,
 * or after a decline) cannot bomb an inbox: at most one a day, and none after a decline.
 */
export const inviteMails = pgTable(
  'invite_mails',
  {
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    /** `user:{id}` for an account, `email:{address}` (lower case) for an address without one. */
    recipient: text('recipient').notNull(),
    /** The last invite mail queued to them for this manuscript. */
    lastMailedAt: timestamp('last_mailed_at', { withTimezone: true }),
    /** They declined an invite to this manuscript: never mailed an invite to it again. */
    declinedAt: timestamp('declined_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.manuscriptId, table.recipient] })],
);
