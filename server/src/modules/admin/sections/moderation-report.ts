import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { REPORT_MODELS } from '@margins/common';
import { schema } from '../../../db/index.ts';
import { ADMIN_VIEWS, type SectionDeclaration } from '../types.ts';
import { moderationReportActions } from './moderation-actions.ts';

const reports = schema.reports;
const STATUSES = ['open', 'resolved', 'dismissed'] as const;

/** What was reported, in a line: the comment's text or the manuscript's title. */
const element = sql<string | null>`case ${reports.modelName}
    when 'comment' then (select ${schema.comments.body} from ${schema.comments} where ${schema.comments.id} = ${reports.reportElementId})
    when 'manuscript' then (select ${schema.manuscripts.title} from ${schema.manuscripts} where ${schema.manuscripts.id} = ${reports.reportElementId})
  end`;

/** Reports from readers: the moderation queue's rows, their actions, and what can be reported. */
export const moderationReportSection: SectionDeclaration = {
  name: 'moderation-report',
  label: 'Moderation reports',
  table: reports,
  id: reports.id,
  labelField: 'element',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'model_name',
      label: 'Kind',
      type: 'enum',
      choices: REPORT_MODELS,
      source: reports.modelName,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'report_element_id',
      label: 'Reported item',
      type: 'number',
      source: reports.reportElementId,
      list: true,
      filterable: true,
    },
    {
      name: 'element',
      label: 'Reported text',
      type: 'textarea',
      source: element,
      list: true,
      searchable: true,
    },
    {
      name: 'reason_id',
      label: 'Reason',
      type: 'reference',
      reference: 'report-reason',
      source: reports.reasonId,
      list: true,
      filterable: true,
    },
    {
      name: 'reason_description',
      label: 'Reporter says',
      type: 'textarea',
      source: reports.reasonDescription,
      list: true,
      searchable: true,
    },
    {
      name: 'reporter_id',
      label: 'Reporter',
      type: 'reference',
      reference: 'user',
      source: reports.reporterId,
      list: true,
      filterable: true,
    },
    {
      name: 'status',
      label: 'Status',
      type: 'enum',
      choices: STATUSES,
      source: reports.status,
      list: true,
      sortable: true,
      filterable: true,
      edit: true,
      inline: true,
    },
    {
      name: 'resolved_by_id',
      label: 'Resolved by',
      type: 'reference',
      reference: 'user',
      source: reports.resolvedById,
      filterable: true,
    },
    {
      name: 'resolved_at',
      label: 'Resolved',
      type: 'date',
      source: reports.resolvedAt,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Reported',
      type: 'date',
      source: reports.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  updateSchema: z
    .object({ status: z.enum(STATUSES, { error: 'Choose open, resolved or dismissed.' }) })
    .partial(),
  bulkActions: moderationReportActions,
  models: [
    { name: 'manuscript', label: 'Manuscript' },
    { name: 'comment', label: 'Comment' },
  ],
  moderatorViews: ADMIN_VIEWS,
};
