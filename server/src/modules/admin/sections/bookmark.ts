import { z } from 'zod';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';
import { referenceId } from './fields.ts';

const bookmarks = schema.bookmarks;

const progress = z
  .number({ error: 'Enter a percentage.' })
  .min(0, 'Between 0 and 100.')
  .max(100, 'Between 0 and 100.')
  .nullable();

/** Reads (a user's bookmark of a manuscript) and how far they got. */
export const bookmarkSection: SectionDeclaration = {
  name: 'bookmark',
  label: 'Bookmarks',
  table: bookmarks,
  id: bookmarks.id,
  labelField: 'id',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'user_id',
      label: 'Reader',
      type: 'reference',
      reference: 'user',
      source: bookmarks.userId,
      list: true,
      filterable: true,
      sortable: true,
      create: true,
      required: true,
    },
    {
      name: 'manuscript_id',
      label: 'Manuscript',
      type: 'reference',
      reference: 'manuscript',
      source: bookmarks.manuscriptId,
      list: true,
      filterable: true,
      sortable: true,
      create: true,
      required: true,
    },
    {
      name: 'progress_percent',
      label: 'Progress (%)',
      type: 'number',
      source: bookmarks.progressPercent,
      list: true,
      sortable: true,
      edit: true,
      inline: true,
    },
    {
      name: 'progress_updated_at',
      label: 'Last read',
      type: 'date',
      source: bookmarks.progressUpdatedAt,
      list: true,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Bookmarked',
      type: 'date',
      source: bookmarks.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  createSchema: z.object({ user_id: referenceId, manuscript_id: referenceId }),
  updateSchema: z.object({ progress_percent: progress }).partial(),
};
