// The moderation bulk actions of the admin sections: each calls its service in the moderation
// module (server/src/modules/moderation/), in the request's transaction (the router writes the
// audit row), so the domain events follow: live rooms, the author's mail, closed sockets.
import type { AppContext, EventTx } from '../../../context.ts';
import {
  dismissOpenReports,
  flagReportedElements,
  liftSuspensions,
  setCommentFlags,
  setManuscriptFlags,
  suspendUsers,
} from '../../moderation/index.ts';
import { parseReason } from '../../moderation/reason.ts';
import type { AdminActor, BulkActionDeclaration } from '../types.ts';

const STAFF_ACTIONS = ['admin', 'moderator'] as const;

type Handler = BulkActionDeclaration['handler'];
/** A reason the action needs (checked and trimmed as the services store it). */
const reasonOf = (input: { reason?: string | undefined }) => parseReason(input.reason);

const flagManuscripts: Handler = (ctx, tx, ids, input, actor) =>
  setManuscriptFlags(ctx, tx, actor, ids, reasonOf(input));
const clearManuscriptFlags: Handler = (ctx, tx, ids, _input, actor) =>
  setManuscriptFlags(ctx, tx, actor, ids, null);
const flagComments: Handler = (ctx, tx, ids, input, actor) =>
  setCommentFlags(ctx, tx, actor, ids, reasonOf(input));
const clearCommentFlags: Handler = (ctx, tx, ids, _input, actor) =>
  setCommentFlags(ctx, tx, actor, ids, null);
/** Staff accounts are skipped (an admin changes their role first); the reason is optional. */
const suspend: Handler = (ctx, tx, ids, input, actor) =>
  suspendUsers(ctx, tx, actor, ids, input.reason ? reasonOf(input) : null);
const lift: Handler = (ctx, tx, ids, _input, actor) => liftSuspensions(ctx, tx, actor, ids);
const flagReported = (
  ctx: AppContext,
  tx: EventTx,
  ids: number[],
  input: { reason?: string | undefined },
  actor: AdminActor,
) => flagReportedElements(ctx, tx, actor, ids, reasonOf(input));
const dismiss: Handler = (_ctx, tx, ids, _input, actor) => dismissOpenReports(tx, actor, ids);

const flagConfirm = 'Flag the chosen items? Readers will see the reason you give.';

export const moderationManuscriptActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: flagManuscripts,
  },
  {
    name: 'clear-flag',
    label: 'Clear flag',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: clearManuscriptFlags,
  },
];

export const moderationCommentActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: flagComments,
  },
  {
    name: 'clear-flag',
    label: 'Clear flag',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: clearCommentFlags,
  },
];

export const moderationUserActions: BulkActionDeclaration[] = [
  {
    name: 'suspend',
    label: 'Suspend',
    confirm: 'Suspend the chosen accounts? They are logged out at once.',
    roles: STAFF_ACTIONS,
    handler: suspend,
  },
  {
    name: 'lift-suspension',
    label: 'Lift suspension',
    confirm: null,
    roles: STAFF_ACTIONS,
    handler: lift,
  },
];

export const moderationReportActions: BulkActionDeclaration[] = [
  {
    name: 'flag',
    label: 'Flag the reported items',
    confirm: flagConfirm,
    roles: STAFF_ACTIONS,
    needsReason: true,
    handler: flagReported,
  },
  {
    name: 'dismiss',
    label: 'Dismiss',
    confirm: 'Dismiss the chosen reports without action?',
    roles: STAFF_ACTIONS,
    handler: dismiss,
  },
];
