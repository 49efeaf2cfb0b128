import { isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import {
  CATEGORIES as MANUSCRIPT_CATEGORIES,
  INVITE_TYPES as VISIBILITIES,
  type ManuscriptEditValues,
} from '@margins/common';
import { schema } from '../../../db/index.ts';
import { archiveManuscript, editManuscript } from '../../manuscripts/service.ts';
import type { SectionDeclaration } from '../types.ts';
import { moderationManuscriptActions } from './moderation-actions.ts';
import { requiredLine, yesNo } from './fields.ts';

const manuscripts = schema.manuscripts;

const updateSchema = z
  .object({
    title: requiredLine('a title', 200),
    visibility: z.enum(VISIBILITIES, { error: `Choose one of: ${VISIBILITIES.join(', ')}.` }),
    category: z.enum(MANUSCRIPT_CATEGORIES, {
      error: `Choose one of: ${MANUSCRIPT_CATEGORIES.join(', ')}.`,
    }),
    summary: z.string().trim().max(5000, 'Use at most 5000 characters.'),
    nsfw: yesNo,
  })
  .partial();

/**
 * Manuscripts: their settings and state, never their text (staff read a manuscript only as
 * the reading rule allows, in the reader). Deleting archives, as the author's delete does.
 */
export const manuscriptSection: SectionDeclaration = {
  name: 'manuscript',
  label: 'Manuscripts',
  table: manuscripts,
  id: manuscripts.id,
  labelField: 'title',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'title',
      label: 'Title',
      type: 'text',
      source: manuscripts.title,
      list: true,
      sortable: true,
      searchable: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'user_id',
      label: 'Author',
      type: 'reference',
      reference: 'user',
      source: manuscripts.userId,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'visibility',
      label: 'Visibility',
      type: 'enum',
      choices: VISIBILITIES,
      source: manuscripts.visibility,
      list: true,
      sortable: true,
      filterable: true,
      edit: true,
    },
    {
      name: 'category',
      label: 'Category',
      type: 'enum',
      choices: MANUSCRIPT_CATEGORIES,
      source: manuscripts.category,
      sortable: true,
      filterable: true,
      edit: true,
    },
    {
      name: 'summary',
      label: 'Summary',
      type: 'textarea',
      source: manuscripts.summary,
      edit: true,
    },
    {
      name: 'nsfw',
      label: 'Mature',
      type: 'boolean',
      source: manuscripts.nsfw,
      list: true,
      filterable: true,
      edit: true,
      inline: true,
    },
    {
      name: 'private_comments',
      label: 'Private comments',
      type: 'boolean',
      source: manuscripts.privateComments,
      filterable: true,
    },
    {
      name: 'approvals_required',
      label: 'Approvals required',
      type: 'boolean',
      source: manuscripts.approvalsRequired,
      filterable: true,
    },
    {
      name: 'inking',
      label: 'Processing',
      type: 'boolean',
      source: manuscripts.inking,
      filterable: true,
    },
    {
      name: 'moderation_flag',
      label: 'Flagged',
      type: 'boolean',
      source: manuscripts.moderationFlag,
      list: true,
      filterable: true,
    },
    {
      name: 'moderation_reason',
      label: 'Flag reason',
      type: 'text',
      source: manuscripts.moderationReason,
    },
    {
      name: 'words',
      label: 'Words',
      type: 'number',
      source: manuscripts.words,
      list: true,
      sortable: true,
    },
    {
      name: 'archived',
      label: 'Archived',
      type: 'boolean',
      source: sql<boolean>`(${manuscripts.archivedAt} is not null)`,
      filterable: true,
      filter: {
        schema: z
          .enum(['true', 'false', '1', '0'])
          .transform((value) => value === 'true' || value === '1'),
        condition: (archived: boolean) =>
          archived ? sql`${manuscripts.archivedAt} is not null` : isNull(manuscripts.archivedAt),
      },
    },
    {
      name: 'archived_at',
      label: 'Archived on',
      type: 'date',
      source: manuscripts.archivedAt,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Uploaded',
      type: 'date',
      source: manuscripts.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  updateSchema,
  // The author's commands (modules/manuscripts/service.ts): the same row, events and rules.
  update: async ({ ctx, tx, actor }, id, input) => {
    // What staff may change is a part of the author's edit form (the type checks it stays one).
    const change: ManuscriptEditValues = input as z.output<typeof updateSchema>;
    await editManuscript(ctx, actor, { id }, change, tx);
  },
  remove: async ({ ctx, tx, actor }, id) => {
    await archiveManuscript(ctx, actor, { id }, tx);
  },
  bulkActions: moderationManuscriptActions,
  moderatorViews: ['list', 'details', 'lookup', 'bulk'],
};
