// Invites, share links and access requests: who is asked or asks to read a manuscript.
import { z } from 'zod';
import { INVITE_TYPES, LIST_MAX_PER_PAGE } from '../constants.ts';
import { listPageFields, listQuery } from './list.ts';
import { databaseId, formBoolean } from './fields.ts';

/** How a reader relates to a manuscript (see the `invites` table). */
export const INVITE_KINDS = ['user', 'email', 'link', 'request', 'redemption'] as const;
export type InviteKind = (typeof INVITE_KINDS)[number];
/** pending/accepted/rejected: invites; requested/approved/refused: access requests. */
export const INVITE_STATUSES = [
  'pending',
  'accepted',
  'rejected',
  'requested',
  'approved',
  'refused',
] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** The people on an invite: handle and display name, never the account's e-mail. */
export const inviteUser = z.object({
  /** The user's id. */
  id: z.number(),
  /** The user's display name. */
  display_name: z.string(),
  /** The user's handle, or null before sign-up is complete. */
  handle: z.string().nullable(),
  /**
   * Always null: an account's address never leaves in an invite (the address an author typed is
   * the invite's own `email`). Kept so that older clients still parse.
   */
  email: z.string().nullable(),
});
export type InviteUser = z.infer<typeof inviteUser>;

/** An invite as its author or its invitee sees it (SPEC §3 Invite). */
export const invite = z.object({
  /** The invite's id (for DELETE /manuscript/invite/{id}, accept and reject). */
  id: z.number(),
  /** user | email | link | request | redemption (a reader who came through a link). */
  kind: z.enum(INVITE_KINDS),
  /** The manuscript's invite type when it was made: private | restricted | logged_in | public. */
  invite_type: z.enum(INVITE_TYPES),
  /** pending | accepted | rejected (invites); requested | approved | refused (requests). */
  status: z.enum(INVITE_STATUSES),
  /** The absolute share link (/share/{code}); only for the manuscript's author, else null. */
  link: z.string().nullable(),
  /**
   * The invited, redeeming or requesting reader; null for links, and for e-mail invites until
   * they are accepted (so an author never learns whose account an address is).
   */
  user: inviteUser.nullable(),
  /** The address an e-mail invite went to: only for the author who sent it, else null. */
  email: z.string().nullable(),
  /** The link's code and whether a one-time link was used; only for the author, else null. */
  invite_code: z.object({ code: z.string(), redeemed: z.boolean() }).nullable(),
  /** A one-time link: only its first user gets in. */
  one_time: z.boolean(),
  /** When a one-time link was used (ISO-8601), or null. */
  redeemed_at: z.string().nullable(),
  /** The manuscript invited to: enough for the dashboard's pending-invite list. */
  manuscript: z.object({
    /** The manuscript's id (reader: /manuscript/document/reader/{id}). */
    id: z.number(),
    /** Its title. */
    title: z.string(),
    /** Its author's public name. */
    author: z.object({ id: z.number(), display_name: z.string(), handle: z.string().nullable() }),
  }),
  /** ISO-8601 creation time. */
  created: z.string(),
});
export type Invite = z.infer<typeof invite>;

/** 200 of every call that answers one invite. */
export const inviteResponse = z.object({ invite });
export type InviteResponse = z.infer<typeof inviteResponse>;

/** GET /user/current/invites (JSON): the caller's pending invites, newest first. */
export const inviteListResponse = z.object({ invites: z.array(invite), ...listPageFields });
export type InviteListResponse = z.infer<typeof inviteListResponse>;

/** GET /user/current/invites (JSON) query: the list contract. */
export const inviteListQuery = listQuery({
  sort: ['created'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  defaultPerPage: LIST_MAX_PER_PAGE,
});
export type InviteListQuery = z.output<typeof inviteListQuery>;

/** GET /manuscript/{id}/invites query: the list contract; `q` looks in addresses and codes. */
export const manuscriptInvitesQuery = listQuery({
  sort: ['created', 'status', 'kind'],
  defaultSort: 'created',
  defaultOrder: 'desc',
  filters: {
    kind: z.enum(INVITE_KINDS, { error: `One of: ${INVITE_KINDS.join(', ')}.` }).optional(),
    status: z.enum(INVITE_STATUSES, { error: `One of: ${INVITE_STATUSES.join(', ')}.` }).optional(),
  },
  defaultPerPage: LIST_MAX_PER_PAGE,
});
export type ManuscriptInvitesQuery = z.output<typeof manuscriptInvitesQuery>;

/** GET /manuscript/{id}/invites (author): every invite, link, redemption and request. */
export const manuscriptInvitesResponse = z.object({
  /** The manuscript's current invite type. */
  visibility: z.enum(INVITE_TYPES),
  /** Newest first. */
  invites: z.array(invite),
  ...listPageFields,
});
export type ManuscriptInvitesResponse = z.infer<typeof manuscriptInvitesResponse>;

/**
 * POST /manuscript/{id}/invite/user: a handle (a leading @ is ignored) or an e-mail address,
 * in either field; one of them must be given ("Enter a username or email address.").
 */
export const inviteByUserBody = z.object({
  /** A handle, or an e-mail address typed into the same box. */
  username: z.string().trim().max(254).optional(),
  /** An e-mail address. */
  email: z.string().trim().max(254).optional(),
});
export type InviteByUserBody = z.infer<typeof inviteByUserBody>;

/** POST /manuscript/{id}/invite/link: sets the manuscript's invite type and answers its link. */
export const inviteByLinkBody = z.object({
  /** The new invite type: private | restricted | logged_in | public. */
  access: z.enum(INVITE_TYPES, {
    error: 'Choose who may read it: private, restricted, logged_in or public.',
  }),
  /** The code of a link of this manuscript to reuse; a new one is made when absent or unknown. */
  code: z.string().trim().max(64).optional(),
  /** A one-time link (private only): a new link each time, only its first user gets in. */
  useInvite: formBoolean.optional().default(false),
});
export type InviteByLinkBody = z.input<typeof inviteByLinkBody>;

export const inviteIdParams = z.object({ invite_id: databaseId });
export const accessRequestParams = z.object({
  /** The manuscript. */
  manuscript_id: databaseId,
  /** The request (an invite of kind `request`). */
  request_id: databaseId,
  /** approve | refuse. */
  decision: z.enum(['approve', 'refuse']),
});
export const shareCodeParams = z.object({
  /** The code of a share link or a mailed invite. */
  code: z.string().min(1).max(64),
});

/** What the share-link landing page (page `share`) shows when it does not redirect. */
export const SHARE_STATES = [
  'accept',
  'invalid',
  'used',
  'not_yours',
  'unavailable',
  'request_access',
  'request_pending',
  'request_refused',
] as const;
export type ShareState = (typeof SHARE_STATES)[number];

/** Page `data` of GET /share/{code} (and its JSON answer) when it does not redirect. */
export const sharePageData = z.object({
  /**
   * accept (200: an invite to the visitor, or a private link: offer POST /share/{code}/accept) |
   * invalid (404: no such link, or the manuscript is gone) | used (403: a one-time link
   * someone else used) | not_yours (403: an invite to another account) | unavailable (404:
   * the invite was rejected, or the link no longer fits the manuscript's invite type) |
   * request_access (restricted: offer POST /share/{code}/request) | request_pending |
   * request_refused.
   */
  state: z.enum(SHARE_STATES),
  /** The code in the URL. */
  code: z.string(),
  /** The sentence to show. */
  message: z.string(),
  /** The manuscript, when the visitor may know about it (accept, restricted requests), else null. */
  manuscript: z
    .object({
      id: z.number(),
      title: z.string(),
      summary: z.string(),
      author: z.object({ id: z.number(), display_name: z.string(), handle: z.string().nullable() }),
    })
    .nullable(),
});
export type SharePageData = z.infer<typeof sharePageData>;
