// The moderator's landing screen (issue 14 item 4): the report queue as a view of the
// moderation-report section, and the queue's actions on what the chosen reports are about.
// Each action runs in the router's transaction (one audit row with the report ids) and calls
// the moderation services, so their events follow (live rooms, the author's mail, sockets).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { reportQueueQuery, reportQueueResponse } from '@margins/common';
import { schema, type Tx } from '../../../db/index.ts';
import {
  reportQueue,
  setCommentFlags,
  setManuscriptFlags,
  suspendUsers,
} from '../../moderation/index.ts';
import { resolveOpenReports } from '../../moderation/flags.ts';
import { assertModerator } from '../../moderation/policy.ts';
import type { BulkActionDeclaration } from '../types.ts';
import { defineView } from '../views.ts';
import { tombstoneAsStaff } from './comment.ts';

const STAFF = ['admin', 'moderator'] as const;
type Handler = BulkActionDeclaration['handler'];

/** The manuscripts and comments these reports are about, each once. */
async function reportedElements(tx: Tx, reportIds: number[]) {
  const rows = await tx
    .select({ model: schema.reports.modelName, elementId: schema.reports.reportElementId })
    .from(schema.reports)
    .where(inArray(schema.reports.id, reportIds));
  const of = (model: string) => [
    ...new Set(rows.filter((row) => row.model === model).map((row) => row.elementId)),
  ];
  return { manuscripts: of('manuscript'), comments: of('comment') };
}

const clearReportedFlags: Handler = async (ctx, tx, ids, _input, actor) => {
  const elements = await reportedElements(tx, ids);
  return (
    (await setManuscriptFlags(ctx, tx, actor, elements.manuscripts, null)) +
    (await setCommentFlags(ctx, tx, actor, elements.comments, null))
  );
};

/** Deletes the reported comments (a tombstone, as the writer's own delete); their reports close. */
const deleteReportedComments: Handler = async (ctx, tx, ids, _input, actorInput) => {
  const actor = assertModerator(actorInput);
  const { comments } = await reportedElements(tx, ids);
  let deleted = 0;
  for (const id of comments) {
    if (await tombstoneAsStaff({ ctx, tx, actor: actorInput }, id)) deleted += 1;
  }
  await resolveOpenReports(tx, actor, 'comment', comments);
  return deleted;
};

/**
 * Suspends whoever wrote what the reports are about (staff are skipped, as in the user
 * section); these reports are resolved: the moderator has acted on them.
 */
const suspendReportedAuthors: Handler = async (ctx, tx, ids, input, actorInput) => {
  const actor = assertModerator(actorInput);
  const elements = await reportedElements(tx, ids);
  const writers = new Set<number>();
  if (elements.comments.length > 0) {
    const rows = await tx
      .select({ id: schema.comments.authorId })
      .from(schema.comments)
      .where(inArray(schema.comments.id, elements.comments));
    for (const row of rows) writers.add(row.id);
  }
  if (elements.manuscripts.length > 0) {
    const rows = await tx
      .select({ id: schema.manuscripts.userId })
      .from(schema.manuscripts)
      .where(inArray(schema.manuscripts.id, elements.manuscripts));
    for (const row of rows) writers.add(row.id);
  }
  const suspended = await suspendUsers(ctx, tx, actor, [...writers], input.reason ?? null);
  await tx
    .update(schema.reports)
    .set({
      status: 'resolved',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(schema.reports.id, ids), eq(schema.reports.status, 'open')));
  return suspended;
};

/** The queue's actions besides flag and dismiss (moderation-actions.ts). */
export const reportQueueActions: BulkActionDeclaration[] = [
  {
    name: 'clear-flag',
    label: 'Clear the flag',
    confirm: null,
    roles: STAFF,
    handler: clearReportedFlags,
  },
  {
    name: 'delete-comment',
    label: 'Delete the comment',
    confirm: 'Delete the reported comments? Their writers and readers no longer see them.',
    roles: STAFF,
    handler: deleteReportedComments,
  },
  {
    name: 'suspend-author',
    label: 'Suspend the writer',
    confirm: 'Suspend whoever wrote what was reported? They are logged out at once.',
    roles: STAFF,
    handler: suspendReportedAuthors,
  },
];

/**
 * GET /admin/api/moderation-report/views/queue: reports grouped by the reported element,
 * newest first, with its text and context (moderation/reports.ts reportQueue).
 */
export const reportQueueView = defineView({
  name: 'queue',
  label: 'Report queue',
  query: reportQueueQuery,
  response: reportQueueResponse,
  handler: (ctx, _actor, query) => reportQueue(ctx, query),
});
