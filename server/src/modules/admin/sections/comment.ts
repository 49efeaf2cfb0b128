import { and, eq, isNull, sql } from 'drizzle-orm';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';
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
    select 1 from ${manuscripts} where ${manuscripts.id} = ${comments.manuscriptId}
      and (${manuscripts.privateComments} or ${manuscripts.visibility} in ('private', 'restricted'))
  ) and not exists (
    select 1 from ${reports} where ${reports.status} = 'open' and (
      (${reports.modelName} = 'comment' and ${reports.reportElementId} = ${comments.id})
      or (${reports.modelName} = 'manuscript' and ${reports.reportElementId} = ${comments.manuscriptId}))
  ) then null else ${comments.body} end`;

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
  remove: async ({ tx }, id) => {
    await tx
      .update(comments)
      .set({ deletedAt: sql`now()`, changedAt: sql`now()` })
      .where(and(eq(comments.id, id), isNull(comments.deletedAt)));
  },
  bulkActions: moderationCommentActions,
  moderatorViews: ['list', 'details', 'lookup', 'bulk'],
};
