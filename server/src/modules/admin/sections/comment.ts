import { sql } from 'drizzle-orm';
import { schema } from '../../../db/index.ts';
import { tombstoneComment } from '../../comments/removal.ts';
import { findCommentInThread } from '../../comments/thread-queries.ts';
import { findManuscript } from '../../manuscripts/queries.ts';
import type { SectionDeclaration, WriteContext } from '../types.ts';
import { qualified } from './fields.ts';
import { moderationCommentActions } from './moderation-actions.ts';

const comments = schema.comments;
const manuscripts = schema.manuscripts;
const reports = schema.reports;

/**
 * A comment's text as staff may see it: hidden (null) when it is private (a manuscript with
 * private comments) or on a private or restricted manuscript, unless a report on the comment
 * or its manuscript is open. Staff do not read private writing at will (issue 14 item 3).
 */
const visibleBody = sql<string | null>`case when exists (
    select 1 from ${manuscripts} where ${qualified(manuscripts.id)} = ${qualified(comments.manuscriptId)}
      and (${qualified(manuscripts.privateComments)} or ${qualified(manuscripts.visibility)} in ('private', 'restricted'))
  ) and not exists (
    select 1 from ${reports} where ${qualified(reports.status)} = 'open' and (
      (${qualified(reports.modelName)} = 'comment' and ${qualified(reports.reportElementId)} = ${qualified(comments.id)})
      or (${qualified(reports.modelName)} = 'manuscript' and ${qualified(reports.reportElementId)} = ${qualified(comments.manuscriptId)}))
  ) then null else ${qualified(comments.body)} end`;

/** Margin comments: find, flag and clear flags, delete (a tombstone, as the writer's delete). */
export const commentSection: SectionDeclaration = {
  name: 'comment',
  label: 'Comments',
  table: comments,
  id: comments.id,
  labelField: 'comment',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'comment',
      label: 'Comment',
      type: 'textarea',
      source: visibleBody,
      list: true,
      searchable: true,
    },
    {
      name: 'manuscript_id',
      label: 'Manuscript',
      type: 'reference',
      reference: 'manuscript',
      source: comments.manuscriptId,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'author_id',
      label: 'Author',
      type: 'reference',
      reference: 'user',
      source: comments.authorId,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'selection_id',
      label: 'Selection',
      type: 'text',
      source: comments.selectionId,
      filterable: true,
    },
    {
      name: 'rank',
      label: 'Rank',
      type: 'number',
      source: comments.rank,
      list: true,
      sortable: true,
    },
    {
      name: 'moderation_flag',
      label: 'Flagged',
      type: 'boolean',
      source: comments.moderationFlag,
      list: true,
      filterable: true,
    },
    {
      name: 'moderation_reason',
      label: 'Flag reason',
      type: 'text',
      source: comments.moderationReason,
    },
    {
      name: 'deleted_at',
      label: 'Deleted',
      type: 'date',
      source: comments.deletedAt,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Written',
      type: 'date',
      source: comments.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  remove: async (write, id) => {
    await tombstoneAsStaff(write, id);
  },
  bulkActions: moderationCommentActions,
  moderatorViews: ['list', 'details', 'lookup', 'bulk'],
};

/**
 * Staff's delete: the writer's own (comments/removal.ts: the tombstone, the writer's unused
 * highlight, comment.deleted or reply.deleted) in the request's transaction. False when it
 * was already gone.
 */
export async function tombstoneAsStaff(
  { ctx, tx, actor }: WriteContext,
  id: number,
): Promise<boolean> {
  const target = await findCommentInThread(tx, id);
  if (!target || target.deletedAt !== null) return false;
  const manuscript = await findManuscript(tx, target.manuscriptId);
  return (await tombstoneComment(ctx, actor.id, target, manuscript!, {}, tx)) !== null;
}
