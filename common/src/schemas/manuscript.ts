import { z } from 'zod';
import { CATEGORIES, INVITE_TYPES, LIST_MAX_PER_PAGE } from '../constants.ts';
import { databaseId, idField, singleLineText } from './fields.ts';
import { listPageFields, listQuery } from './list.ts';
import { publicUser } from './user.ts';
import { genreCategory } from './profile.ts';
import { conversionReport } from './manuscript-report.ts';

/** Largest file POST /manuscript/document accepts (bigger → 413). */
export const MANUSCRIPT_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** The multipart field that carries the file (SPEC §7 attach_document). */
export const MANUSCRIPT_FILE_FIELD = 'docxfile';
/** For `<input type="file" accept=…>`; the server decides by content as well as by name. */
export const MANUSCRIPT_ACCEPT =
  '.docx,.odt,.rtf,.txt,.text,.md,.markdown,.html,.htm,' +
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document,' +
  'application/vnd.oasis.opendocument.text,application/rtf,text/plain,text/markdown,text/html';
/** The source formats a manuscript can be uploaded in. */
export const SOURCE_FORMATS = ['docx', 'odt', 'rtf', 'txt', 'html', 'md'] as const;
export type SourceFormat = (typeof SOURCE_FORMATS)[number];

/** States of GET /manuscript/document/state/:result_id (SPEC §4); anything else is a failure. */
export const DOCUMENT_STATES = [
  'PENDING',
  'PROGRESS',
  'SUCCESS',
  'OVER_WORD_LIMIT',
  'FAILURE',
] as const;
export type DocumentState = (typeof DOCUMENT_STATES)[number];

/** A checkbox as JSON (true/false) or as a form field ("true"/"false", "on"/"off", "1"/"0"). */
const formBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])], {
    error: 'Choose yes or no.',
  })
  .transform((value) => value === true || value === 'true' || value === 'on' || value === '1');

const GENRE_CHOICE = 'Choose genres from the list.';

/** Genre ids as a JSON array, repeated form fields, or one comma-separated field ("" = none). */
const genreIds = z
  .union([z.array(z.union([z.number(), z.string()])), z.string(), z.number()], {
    error: GENRE_CHOICE,
  })
  .transform((value) =>
    (Array.isArray(value) ? value : typeof value === 'number' ? [value] : value.split(','))
      .map((item) => (typeof item === 'string' ? item.trim() : item))
      .filter((item) => item !== ''),
  )
  .pipe(z.array(idField(GENRE_CHOICE)).max(20, 'Choose at most 20 genres.'))
  .transform((ids) => [...new Set(ids)]);

const title = singleLineText()
  .trim()
  .min(1, 'Enter a title.')
  .max(200, 'Use at most 200 characters.');
const summary = z.string().trim().max(2000, 'Use at most 2000 characters.');
const visibility = z.enum(INVITE_TYPES, {
  error: 'Choose who may read it: private, restricted, logged_in or public.',
});
const category = z.enum(CATEGORIES, { error: 'Choose fiction, non-fiction or poetry.' });

/**
 * POST /manuscript/:manuscript_id/edit (multipart or JSON). Every field is optional: a field
 * left out keeps its value, so a form must send unchecked boxes as "false".
 */
export const manuscriptEditBody = z.object({
  /** 1–200 characters. */
  title: title.optional(),
  /** Up to 2000 characters; "" clears it. */
  summary: summary.optional(),
  /** Who may read: private | restricted | logged_in | public. */
  visibility: visibility.optional(),
  /** Only a comment's writer and the author see comment text. */
  private_comments: formBoolean.optional(),
  /** Mature content: readers must certify they are 18 or over. */
  nsfw: formBoolean.optional(),
  /** fiction | non-fiction | poetry. */
  category: category.optional(),
  /** Ids from the genre catalogue; [] (or "") removes all. */
  genre_ids: genreIds.optional(),
  /** Readers need the author's approval (questionnaire) before reading. */
  approvals_required: formBoolean.optional(),
});
export type ManuscriptEditBody = z.input<typeof manuscriptEditBody>;
export type ManuscriptEditValues = z.output<typeof manuscriptEditBody>;

/**
 * The form fields that may come with the file of POST /manuscript/document (multipart, file in
 * `docxfile`). All optional: without a title the document's own title (or the file name) is used.
 */
export const manuscriptUploadFields = manuscriptEditBody.extend({
  /** Empty or absent: the title is taken from the document. */
  title: singleLineText()
    .trim()
    .max(200, 'Use at most 200 characters.')
    .optional()
    .transform((value) => value || undefined),
});
export type ManuscriptUploadFields = z.input<typeof manuscriptUploadFields>;
export type ManuscriptUploadValues = z.output<typeof manuscriptUploadFields>;

/** A manuscript as every client sees it (SPEC §3). */
export const manuscript = z.object({
  id: z.number(),
  title: z.string(),
  /** Plain text; "" when the author wrote none. */
  summary: z.string(),
  /** Who may read: private | restricted | logged_in | public. */
  visibility: z.enum(INVITE_TYPES),
  /** Only a comment's writer and the author see comment text. */
  private_comments: z.boolean(),
  /** Mature content (the card's 18+ badge, the reader's 18+ gate). */
  nsfw: z.boolean(),
  /** fiction | non-fiction | poetry. */
  category: z.enum(CATEGORIES),
  /** The chosen genres, by name. */
  genres: z.array(z.object({ id: z.number(), name: z.string() })),
  /** The same genres' ids (for the edit form). */
  genre_ids: z.array(z.number()),
  /** ISO-8601 creation time. */
  created: z.string(),
  /** ISO-8601 time of the last change (edit or new draft). */
  updated: z.string(),
  /** Still being processed: the card shows "Inking ..." and no link. */
  inking: z.boolean(),
  /** Readers need the author's approval before reading. */
  approvals_required: z.boolean(),
  /** The author's public profile (never the e-mail). */
  author: publicUser,
  /** The author's user id. */
  user_id: z.number(),
  /** Flagged by moderators: cards show the red notice instead of the summary. */
  moderation_flag: z.boolean(),
  /** Why it was flagged, or null ("No reason given"). */
  moderation_reason: z.string().nullable(),
  /** Comments on it (0 until comments exist). */
  comment_count: z.number(),
  /** Words of the current draft (0 while the first upload is inking). */
  words: z.number(),
});
export type Manuscript = z.infer<typeof manuscript>;

/** A heading of the reader's table of contents; `id` is the heading's element id in `html`. */
export const tocEntry = z.object({
  /** The id attribute of the h1–h3 element. */
  id: z.string(),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  text: z.string(),
});
export type TocEntry = z.infer<typeof tocEntry>;

export const manuscriptIdParams = z.object({ manuscript_id: databaseId });
export const resultIdParams = z.object({
  /** The process_id of the upload. */
  result_id: z.string().regex(/^[0-9a-f-]{36}$/, 'Not a process id.'),
});

/** 200 of POST /manuscript/document and POST /manuscript/:manuscript_id/document. */
export const uploadResponse = z.object({
  /** The manuscript, `inking` until the conversion finishes. */
  manuscript,
  /** Poll GET /manuscript/document/state/{process_id} every second. */
  process_id: z.string(),
});
export type UploadResponse = z.infer<typeof uploadResponse>;

/** 200 of GET /manuscript/document/state/:result_id. */
export const documentStateResponse = z.object({
  /** PENDING | PROGRESS | SUCCESS | OVER_WORD_LIMIT | FAILURE. */
  status: z.enum(DOCUMENT_STATES),
  /** A sentence for the author (why it failed, the word-limit message, …). */
  message: z.string(),
  /** The manuscript; null once a failed or over-limit first upload is removed. */
  manuscript: manuscript.nullable(),
  /** On SUCCESS: what the conversion kept and what it could not; absent before that. */
  report: conversionReport.optional(),
});
export type DocumentStateResponse = z.infer<typeof documentStateResponse>;

/** 200 of the edit form and of GET /manuscript/:manuscript_id/summary. */
export const manuscriptResponse = z.object({ manuscript });
export type ManuscriptResponse = z.infer<typeof manuscriptResponse>;

/**
 * GET /user/current/manuscripts (JSON) query: the list contract. By default newest first, a
 * page as long as allowed (the dashboard shows them all up to that).
 */
export const manuscriptListQuery = listQuery({
  sort: ['created', 'updated', 'title', 'words'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  filters: {
    category: z.enum(CATEGORIES, { error: `One of: ${CATEGORIES.join(', ')}.` }).optional(),
    visibility: z.enum(INVITE_TYPES, { error: `One of: ${INVITE_TYPES.join(', ')}.` }).optional(),
  },
  defaultPerPage: LIST_MAX_PER_PAGE,
});
export type ManuscriptListQuery = z.output<typeof manuscriptListQuery>;

/** GET /user/current/manuscripts (JSON): the caller's live manuscripts, newest first. */
export const manuscriptListResponse = z.object({
  manuscripts: z.array(manuscript),
  ...listPageFields,
});
export type ManuscriptListResponse = z.infer<typeof manuscriptListResponse>;

/** The reader's page configuration (SPEC §3): page `data` of the HTML page, and the JSON answer. */
export const readerResponse = z.object({
  manuscript_id: z.number(),
  /** The author's id (the reader shows the edit form when it is the current user's). */
  manuscript_user_id: z.number(),
  visibility: z.enum(INVITE_TYPES),
  current_user_id: z.number().nullable(),
  /**
   * nsfw, and the reader is neither the author nor certified 18+: show the 18+ gate.
   * `html` and `toc` are empty then; certify (GET /profile/certify18) and reload.
   */
  restricted_mature: z.boolean(),
  /** Flagged by moderators and the reader is not the author: show the warning first. */
  restricted_moderation: z.boolean(),
  /** The moderators' reason, or null. */
  moderationReason: z.string().nullable(),
  manuscript,
  /** The normalised, allow-listed HTML of the current draft ("" while inking). */
  html: z.string(),
  /** h1–h3 of the text, in order. */
  toc: z.array(tocEntry),
  /** Words of the current draft. */
  words: z.number(),
  /**
   * Set in the reader page's own data only: `html` and `toc` are left out of the page (which is
   * never cached) and come from the JSON answer (cached, 304 on a return). Issue 11.
   */
  text_from_json: z.boolean().optional(),
});
export type ReaderResponse = z.infer<typeof readerResponse>;

/** Page `data` of /dashboard and /user/current/manuscripts (HTML). */
export const dashboardPageData = z.object({
  manuscripts: z.array(manuscript),
  /** The user's reads (filled in by the access issue). */
  bookmarks: z.array(z.unknown()),
  /** The user's pending invites (filled in by the access issue). */
  invites: z.array(z.unknown()),
  /** The genre catalogue, for the edit and upload forms. */
  categories: z.array(genreCategory),
});
export type DashboardPageData = z.infer<typeof dashboardPageData>;

/** Page `data` of /manuscript/upload. */
export const uploadPageData = z.object({ categories: z.array(genreCategory) });
export type UploadPageData = z.infer<typeof uploadPageData>;
