// Reading insights (issue 15): the reader's progress batches and the author's Insights tab.
import { z } from 'zod';
import {
  READING_BATCH_MAX_BLOCKS,
  REMINDER_DAYS_MAX,
  STOP_REASONS,
  STOP_TEXT_MAX,
} from '../constants.ts';
import { INSIGHTS_MESSAGES } from '../messages.ts';
import { databaseId, plainText, singleLineText } from './fields.ts';

/** A block the reader had on screen, and for how long (active, visible time only). */
export const readingBlock = z.object({
  /** The block's id in the text (stable across drafts while the block is unchanged). */
  id: singleLineText().min(1).max(100),
  /** Milliseconds it was on screen while the tab was visible and the reader not idle. */
  ms: z.number().int().min(0).max(3_600_000),
});

/** How far the reader got: kept on the read (the furthest wins; the reads list shows it). */
export const readingPosition = z.object({
  /** The index of the block (paragraph) in view, 0-based. */
  block_idx: z.number().int().min(0).max(10_000_000),
  /** How much of the text is behind the reader, 0–100. */
  percent: z.number().min(0).max(100),
});

/** POST /bookmark/:manuscript_id/reading: one batch of reading time, and the position. */
export const readingBatchBody = z
  .object({
    blocks: z.array(readingBlock).max(READING_BATCH_MAX_BLOCKS).default([]),
    position: readingPosition.optional(),
  })
  .refine((body) => body.blocks.length > 0 || body.position !== undefined, {
    message: INSIGHTS_MESSAGES.emptyBatch,
    path: ['blocks'],
  });
export type ReadingBatchBody = z.infer<typeof readingBatchBody>;

/** POST /manuscript/:manuscript_id/reading/stop: "I'm stopping here". */
export const stopReadingBody = z.object({
  reason: z.enum(STOP_REASONS, { error: 'Choose a reason from the list.' }),
  /** Free text, optional. */
  text: plainText()
    .max(STOP_TEXT_MAX, `Keep it under ${STOP_TEXT_MAX} characters.`)
    .optional()
    .default(''),
  /** The chapter (its heading's block id) the reader is in; else their furthest one. */
  chapter_id: singleLineText().max(100).optional(),
});
export type StopReadingBody = z.input<typeof stopReadingBody>;

/** One chapter (an h1–h2 section of the TOC) of the current draft. */
export const chapterInfo = z.object({
  /** The heading's block id (or the first block's id for text before any heading). */
  id: z.string(),
  title: z.string(),
  words: z.number().int(),
});

/** The reader's own progress (GET /manuscript/:manuscript_id/reading). */
export const ownReadingResponse = z.object({
  chapters: z.array(
    chapterInfo.extend({
      /** Share of the chapter's blocks seen, 0–100. */
      percent: z.number(),
      seconds: z.number(),
    }),
  ),
  percent: z.number(),
  finished: z.string().nullable(),
  stopped: z.object({ reason: z.enum(STOP_REASONS), text: z.string(), at: z.string() }).nullable(),
});
export type OwnReadingResponse = z.infer<typeof ownReadingResponse>;

export const readingStateResponse = z.object({
  finished: z.string().nullable(),
  stopped: z.object({ reason: z.enum(STOP_REASONS), text: z.string(), at: z.string() }).nullable(),
});

export const insightsChapter = chapterInfo.extend({
  /** Readers whose furthest chapter is this one or a later one. */
  reached: z.number().int(),
  /** Median minutes per 1,000 words among the readers who spent time here; null: none did. */
  minutes_per_1000: z.number().nullable(),
  highlights: z.number().int(),
  comments: z.number().int(),
  /** (highlights + comments) per 1,000 words. */
  engagement_per_1000: z.number(),
  /** Readers who stopped here ("I'm stopping here"). */
  stops: z.number().int(),
});
export type InsightsChapter = z.infer<typeof insightsChapter>;

export const insightsReader = z.object({
  user_id: z.number().int(),
  display_name: z.string(),
  handle: z.string().nullable(),
  /** Index into chapters of the furthest chapter reached; null: not started. */
  furthest_chapter: z.number().int().nullable(),
  percent: z.number(),
  last_active: z.string().nullable(),
  comments: z.number().int(),
  questionnaire: z.enum(['none', 'waiting', 'approved']),
  feedback: z.enum(['none', 'answered']),
  finished: z.string().nullable(),
  stopped: z
    .object({
      reason: z.enum(STOP_REASONS),
      text: z.string(),
      at: z.string(),
      /** Index into chapters; null when the chapter is no longer in the draft. */
      chapter: z.number().int().nullable(),
    })
    .nullable(),
  last_reminded: z.string().nullable(),
});
export type InsightsReader = z.infer<typeof insightsReader>;

/** GET /manuscript/:manuscript_id/insights (owner only). */
export const insightsResponse = z.object({
  chapters: z.array(insightsChapter),
  readers: z.array(insightsReader),
  /** Readers with any reading time (the curve's first point). */
  started: z.number().int(),
  /** Idle days before a reminder; null: reminders off. */
  reminder_days: z.number().int().nullable(),
});
export type InsightsResponse = z.infer<typeof insightsResponse>;

/** GET /manuscript/:manuscript_id/insights/heat: highlights and comments per block. */
export const heatResponse = z.object({
  blocks: z.array(
    z.object({ id: z.string(), highlights: z.number().int(), comments: z.number().int() }),
  ),
});
export type HeatResponse = z.infer<typeof heatResponse>;

/** PUT /manuscript/:manuscript_id/insights/settings. */
export const insightsSettingsBody = z.object({
  reminder_days: z
    .number({ error: INSIGHTS_MESSAGES.reminderDays })
    .int(INSIGHTS_MESSAGES.reminderDays)
    .min(1, INSIGHTS_MESSAGES.reminderDays)
    .max(REMINDER_DAYS_MAX, INSIGHTS_MESSAGES.reminderDays)
    .nullable(),
});
export type InsightsSettingsBody = z.infer<typeof insightsSettingsBody>;

export const insightsReaderParams = z.object({
  manuscript_id: databaseId,
  user_id: databaseId,
});
