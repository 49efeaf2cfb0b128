import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { REPORT_MODELS } from '@margins/common';
import { schema } from '../../../db/index.ts';
import { ADMIN_VIEWS, type SectionDeclaration } from '../types.ts';
import { qualified } from './fields.ts';
import { moderationReportActions } from './moderation-actions.ts';
import { reportQueueActions, reportQueueView } from './report-queue.ts';

const reports = schema.reports;
const STATUSES = ['open', 'resolved', 'dismissed'] as const;

/**
 * What was reported, in a line: the manuscript's title, or the comment's text — for a private
 * comment (or one on a private or restricted manuscript) only while the report is open: staff
 * read private writing only to work a report (issue 14 item 3).
 */
const element = sql<string | null>`case ${qualified(reports.modelName)}
    when 'comment' then (select case when ${qualified(reports.status)} = 'open' or not (
        ${qualified(schema.manuscripts.privateComments)} or ${qualified(schema.manuscripts.visibility)} in ('private', 'restricted')
      ) then ${qualified(schema.comments.body)} end
      from ${schema.comments} join ${schema.manuscripts} on ${qualified(schema.manuscripts.id)} = ${qualified(schema.comments.manuscriptId)}
      where ${qualified(schema.comments.id)} = ${qualified(reports.reportElementId)})
    when 'manuscript' then (select ${qualified(schema.manuscripts.title)} from ${schema.manuscripts} where ${qualified(schema.manuscripts.id)} = ${qualified(reports.reportElementId)})
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
  bulkActions: [...moderationReportActions, ...reportQueueActions],
  views: [reportQueueView],
  models: [
    { name: 'manuscript', label: 'Manuscript' },
    { name: 'comment', label: 'Comment' },
  ],
  moderatorViews: ADMIN_VIEWS,
};
