/** Business constants and limits of SPEC §9, shared by server and web. */

export const CATEGORIES = ['fiction', 'non-fiction', 'poetry'] as const;
export type Category = (typeof CATEGORIES)[number];

export const QUESTION_TYPES = ['multipleChoice', 'multipleAnswer', 'shortAnswer'] as const;
export const INVITE_TYPES = ['private', 'restricted', 'logged_in', 'public'] as const;
export type InviteType = (typeof INVITE_TYPES)[number];

export const NOTIFICATION_CHANNELS = ['email'] as const;
export const NOTIFICATION_KEYS = [
  'invited_to_document',
  'received_approval',
  'reader_needs_approval',
  'reminders',
  'comment_replies',
] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

export const ROLES = ['user', 'moderator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const SOCIAL_FIELDS = [
  'bluesky',
  'discord',
  'instagram',
  'facebook',
  'threads',
  'mastodon',
  'twitter',
  'tiktok',
  'youtube',
  'website',
] as const;
export type SocialField = (typeof SOCIAL_FIELDS)[number];

/** Link prefix per social field; discord is shown without a link (SPEC §3). */
export const SOCIAL_LINK_PREFIX: Record<SocialField, string | null> = {
  bluesky: 'https://bsky.app/profile/',
  discord: null,
  instagram: 'https://instagram.com/',
  facebook: 'https://facebook.com/',
  threads: 'https://threads.net/@',
  mastodon: '',
  twitter: 'https://x.com/',
  tiktok: 'https://tiktok.com/@',
  youtube: 'https://youtube.com/@',
  website: '',
};

export const AUTO_APPROVE_PERCENT_DEFAULT = 85;
export const PAGE_BOOKMARK_TEXT_LENGTH = 20;
export const READING_POSITION_DELAY_MS = 5000;
export const UPLOAD_POLL_MS = 1000;
export const UPLOAD_BUSY_AT = 10;
export const UPLOAD_LONGER_AT = 30;
export const UPLOAD_GIVE_UP_AT = 60;
/**
 * Uploads of one author that may wait for conversion at once (the one being converted
 * included); one more is refused (429) until some are done, so no author can fill the queue.
 */
export const CONVERSIONS_WAITING_PER_USER = 10;
/** Invites (by handle or e-mail) one user may send in an hour, over all their manuscripts. */
export const INVITES_PER_USER_PER_HOUR = 30;
/** At most one invite mail per invitee and manuscript in this many hours. */
export const INVITE_MAIL_INTERVAL_HOURS = 24;
export const QUESTIONNAIRE_RELOAD_MS = 2000;
export const HIGHLIGHT_COLOURS = [
  'yellow',
  'pink',
  'red',
  'green',
  'teal',
  'blue',
  'purple',
  'gray',
] as const;
export const COMMENT_CONTROLLER_OFFSET_PX = 15;
export const SCROLL_DEBOUNCE_MS = 16;
export const RESIZE_DEBOUNCE_MS = 100;
export const SOCKET_OPTIONS = {
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
  timeout: 20000,
} as const;
/**
 * Presence in a manuscript room: the joining socket gets everyone present once; the others get
 * the changes (who came, who went) coalesced into at most one `presence` event per room per
 * this many ms, so a join storm costs one broadcast per window instead of one per join.
 */
export const PRESENCE_FLUSH_MS = 250;
/**
 * A big room's window grows with it (this many ms per socket in the room, up to
 * PRESENCE_FLUSH_MAX_MS): each `presence` goes to every socket of the room, so a thousand
 * readers arriving together would otherwise cost four thousand socket writes a second in
 * presence alone; this keeps it near 500 a second per room, whatever its size.
 */
export const PRESENCE_FLUSH_MS_PER_SOCKET = 2;
export const PRESENCE_FLUSH_MAX_MS = 5_000;
/**
 * Sockets one server process keeps in manuscript rooms. Past it a join is answered "busy"
 * (retry in REALTIME_BUSY_RETRY_SECONDS, with jitter) instead of slowing every room of the
 * process; more readers need more processes (README, "Scaling out").
 */
export const REALTIME_SOCKETS_PER_PROCESS = 1500;
/** How long a client told "busy" waits before joining again (± half of it, at random). */
export const REALTIME_BUSY_RETRY_SECONDS = 5;
/**
 * /healthz and the database: a probe younger than HEALTH_DB_FRESH_MS answers as it is; up to
 * HEALTH_DB_STALE_MS it still answers while a new probe runs; older, the request waits for the
 * probe (HEALTH_DB_TIMEOUT_MS at most, then "not ok"). A busy embedded database then never keeps
 * /healthz waiting behind its queue of statements, and a dead one shows within seconds.
 */
export const HEALTH_DB_FRESH_MS = 1_000;
export const HEALTH_DB_STALE_MS = 5_000;
export const HEALTH_DB_TIMEOUT_MS = 5_000;
export const SEARCH_DEBOUNCE_MS = 300;
export const FLASH_TIMEOUT_MS = 7000;
export const TOAST_DELAY_MS = 5000;
export const CAROUSEL_INTERVAL_MS = 5000;
export const SWIPE_THRESHOLD_PX = 40;
export const PRICING_GRID_COLUMNS = 3;
export const DEFAULT_PRICING_INTERVAL = 'year';
export const CARD_COLOUR_CYCLE = 4;
export const AUTHOR_POPUP_SOCIAL_PER_ROW = 3;
export const COOKIE_ACCEPT_KEY = 'cookie-accept';
export const THEME_KEY = 'ms-theme-pref';
export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

/** Cookie names and the CSRF header of API.md. */
export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
export const SESSION_COOKIE = 'margins_session';
/** Marks the browser that signed up: only it is logged in by the verification link. */
export const SIGNUP_COOKIE = 'margins_signup';

/** The longest manuscript title (characters); a longer title from a form is refused, not cut. */
export const MANUSCRIPT_TITLE_MAX_LENGTH = 200;
/** Set at a successful log-in: a known device is not slowed by failures from elsewhere. */
export const DEVICE_COOKIE = 'margins_device';

/**
 * Log-in throttling (issue 20 item 6: no hard lock an attacker could use as a weapon). From
 * the free-th failure on each failure doubles the wait, from the base up to the cap;
 * failures are forgotten a day after the last one.
 */
export const LOGIN_THROTTLE = {
  freeFailuresPerAccount: 5,
  freeFailuresPerIp: 30,
  baseDelaySeconds: 2,
  maxDelaySeconds: 15 * 60,
  forgetAfterSeconds: 24 * 60 * 60,
} as const;
/** A mailed one-time log-in link works this long, once. */
export const LOGIN_LINK_MINUTES = 15;
export const DEVICE_COOKIE_DAYS = 365;

/** Profile limits. */
export const HANDLE_PATTERN = /^[a-zA-Z0-9_]{3,30}$/;
export const PASSWORD_MIN_LENGTH = 10;
export const PICTURE_MAX_BYTES = 2 * 1024 * 1024;
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

/** Discover: results per page, the longest search text, the highest page number asked for. */
export const DISCOVER_PAGE_SIZE = 12;
export const DISCOVER_QUERY_MAX = 200;
export const DISCOVER_MAX_PAGE = 10_000;
/**
 * The most matches of a search with words that are ranked, counted and paged (a broad word
 * matches half the shelf; nobody reads past page 50): 50 pages of DISCOVER_PAGE_SIZE.
 */
export const DISCOVER_RESULT_CAP = 600;
/**
 * The list contract (schemas/list.ts): page sizes, the highest page number a client may ask
 * for (past it: 400; past the last page: the last page), the longest search text.
 */
export const LIST_DEFAULT_PER_PAGE = 20;
export const LIST_MAX_PER_PAGE = 100;
export const LIST_MAX_PAGE = 100_000;
export const LIST_Q_MAX_LENGTH = 200;
/**
 * The dashboard's own manuscripts get sort and filter controls past this many cards: two
 * rows of the three-column grid, about a screenful on a laptop.
 */
export const DASHBOARD_CONTROLS_AFTER = 6;

/**
 * Event rows (server/src/events/outbox.ts): rows left undispatched (a crash between commit and
 * dispatch) younger than the grace may still be on their way in a live process and are left to
 * it; a claimed row is claimed again after the lease (its recovering process died); dispatched
 * rows are kept for the retention (later subscribers, debugging), then pruned; the sweep that
 * recovers and prunes runs on this cron; one pass takes at most the batch.
 */
export const EVENT_RECOVERY_GRACE_SECONDS = 60;
export const EVENT_CLAIM_LEASE_SECONDS = 300;
export const EVENT_RETENTION_DAYS = 7;
export const EVENT_SWEEP_CRON = '* * * * *';
export const EVENT_RECOVERY_BATCH = 500;
/**
 * Dispatched event rows are marked in one statement per this many ms (not one per write): under
 * a steady stream of comments the marks cost a few statements a second. Far below the recovery
 * grace, so the sweep never mistakes a row waiting for its mark for a lost one.
 */
export const EVENT_MARK_DELAY_MS = 200;

/**
 * Features as runtime switches (admin "feature" section): their names, and how long a process
 * keeps what it read before reading the table again (an admin's change reaches every process
 * within this; the process that made it at once).
 */
export const FEATURE_NAMES = ['productsEnabled', 'invitesEnabled', 'maintenance'] as const;
export type FeatureName = (typeof FEATURE_NAMES)[number];
export const FEATURES_CACHE_MS = 3000;
/** A moderator's reason for a flag or a suspension. */
export const MODERATION_REASON_MAX_LENGTH = 500;
/** The longest notice shown on every page while maintenance is on. */
export const MAINTENANCE_NOTICE_MAX_LENGTH = 500;

/** The admin area (issue 14): ids one bulk action takes, lookup options, export batch size. */
export const ADMIN_BULK_MAX_IDS = 1000;
export const ADMIN_LOOKUP_LIMIT = 20;
export const ADMIN_REASON_MAX_LENGTH = 500;
/** Rows read per statement while an export streams (keyset batches: memory stays flat). */
export const ADMIN_EXPORT_BATCH = 500;
/** Days of the dashboard's trends. */
export const ADMIN_DASHBOARD_DAYS = 30;
/** Admin bulk actions that take a reason (`input.reason`, the admin contract): the UI asks for it. */
export const ADMIN_BULK_ACTIONS_WITH_REASON: readonly string[] = ['flag', 'suspend'];
/** Days of the admin dashboard's trends (the server's series are this long). */
export const ADMIN_TREND_DAYS = ADMIN_DASHBOARD_DAYS;

/**
 * Reading insights (issue 15). The reader reports which blocks it had on screen, batched:
 * a batch at most this often while reading, and once more when the page is hidden.
 */
export const READING_REPORT_MS = 20_000;
/** No scroll, key, pointer or touch for this long: the reader is idle and time stops counting. */
export const READING_IDLE_MS = 60_000;
/**
 * A reader's right to write progress to a read is decided once and kept this long (a batch
 * comes every READING_REPORT_MS): server/src/modules/bookmarks/read-access-cache.ts.
 */
export const READ_ACCESS_CACHE_MS = 10_000;
/** Decisions kept at most (per process). */
export const READ_ACCESS_CACHE_MAX = 20_000;
/**
 * Progress batches arriving within this long share one statement (a group commit: the
 * request answers once it is written); at this many reads waiting, the statement goes at once.
 */
export const READING_FLUSH_MS = 20;
export const READING_FLUSH_MAX_READS = 200;
/** Blocks in one progress batch, at most (a batch is refused past it). */
export const READING_BATCH_MAX_BLOCKS = 400;
/**
 * The most time one block can earn, per word (a slow 100 words a minute) and at least: an
 * open tab on one paragraph does not make a chapter look slow.
 */
export const READING_MS_PER_WORD_MAX = 600;
export const READING_BLOCK_MIN_CAP_MS = 5_000;
/** Why a reader stops: the short list of "I'm stopping here" (free text may follow). */
export const STOP_REASONS = [
  'lost_interest',
  'confusing',
  'too_slow',
  'not_my_genre',
  'no_time',
  'other',
] as const;
export type StopReason = (typeof STOP_REASONS)[number];
export const STOP_REASON_LABELS: Record<StopReason, string> = {
  lost_interest: 'I lost interest',
  confusing: 'It got confusing',
  too_slow: 'The pace is too slow',
  not_my_genre: 'Not my kind of book',
  no_time: 'No time right now',
  other: 'Something else',
};
export const STOP_TEXT_MAX = 500;
/** Reminders: idle days before a reader is reminded (author's setting), its default and range. */
export const REMINDER_DAYS_DEFAULT = 7;
export const REMINDER_DAYS_MAX = 90;
/** When the daily reminder job runs (cron, UTC). */
export const REMINDER_CRON = '0 9 * * *';
/** Hand nudges: one per reader and manuscript a day, and this many an author a day. */
export const NUDGES_PER_AUTHOR_PER_DAY = 20;

/**
 * Threads (issue 16): the fixed set of reactions on comments and replies (URL-safe names; the
 * emoji are what people see). One of each per user.
 */
export const REACTIONS = {
  thumbs_up: '👍',
  heart: '❤️',
  laugh: '😂',
  wow: '😮',
  sad: '😢',
  idea: '💡',
} as const;
export type ReactionName = keyof typeof REACTIONS;
export const REACTION_NAMES = Object.keys(REACTIONS) as ReactionName[];
/** Reply mails are gathered and sent at most this often per reader. */
export const REPLY_MAIL_INTERVAL_MINUTES = 60;
/** Feedback exports: a finished file is kept this long, then removed. */
export const EXPORT_KEEP_HOURS = 24;
/** A block on screen for less than this (scrolled past) is not reported, so not counted as seen. */
export const READING_MIN_DWELL_MS = 1_000;

/**
 * The session cache (server/src/modules/auth/session-cache.ts): a session's user is kept this
 * long at most. Every change to a user or a session is announced to every process at its commit
 * (LISTEN/NOTIFY) and forgets the entry at once; this bound only covers a listener connection
 * that stalls without an error (one that errs turns the cache off until it is back).
 */
export const SESSION_CACHE_MS = 5_000;
/** Sessions kept at most (per process); past it the oldest entry goes. */
export const SESSION_CACHE_MAX = 20_000;
/** A lost LISTEN connection is tried again after this long (no caching meanwhile). */
export const SESSION_CACHE_RECONNECT_MS = 2_000;
