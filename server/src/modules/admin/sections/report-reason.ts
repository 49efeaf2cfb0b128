import { z } from 'zod';
import { ADMIN_VIEWS } from '../types.ts';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';
import { optionalLine, requiredLine, yesNo } from './fields.ts';

const reasons = schema.reportReasons;

const reasonFields = {
  reason: requiredLine('a reason', 120),
  description: optionalLine(500),
  description_required: yesNo,
  position: z
    .number({ error: 'Enter a whole number.' })
    .int('Enter a whole number.')
    .min(0, 'Use 0 or more.')
    .max(10_000, 'Use at most 10000.'),
  active: yesNo,
};

/** Why readers can report something (the report modal's list). */
export const reportReasonSection: SectionDeclaration = {
  name: 'report-reason',
  label: 'Report reasons',
  table: reasons,
  id: reasons.id,
  labelField: 'reason',
  defaultSort: 'position',
  defaultOrder: 'asc',
  fields: [
    {
      name: 'reason',
      label: 'Reason',
      type: 'text',
      source: reasons.reason,
      list: true,
      sortable: true,
      searchable: true,
      create: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'description',
      label: 'Description',
      type: 'text',
      source: reasons.description,
      list: true,
      searchable: true,
      create: true,
      edit: true,
    },
    {
      name: 'description_required',
      label: 'Reporter must describe',
      type: 'boolean',
      source: reasons.descriptionRequired,
      list: true,
      filterable: true,
      create: true,
      edit: true,
      inline: true,
    },
    {
      name: 'position',
      label: 'Position',
      type: 'number',
      source: reasons.position,
      list: true,
      sortable: true,
      create: true,
      edit: true,
      inline: true,
    },
    {
      name: 'active',
      label: 'Active',
      type: 'boolean',
      source: reasons.active,
      list: true,
      filterable: true,
      create: true,
      edit: true,
      inline: true,
    },
    {
      name: 'created_at',
      label: 'Created',
      type: 'date',
      source: reasons.createdAt,
      sortable: true,
    },
  ],
  createSchema: z.object({
    ...reasonFields,
    description_required: reasonFields.description_required.default(false),
    position: reasonFields.position.default(0),
    active: reasonFields.active.default(true),
  }),
  updateSchema: z.object(reasonFields).partial(),
  moderatorViews: ADMIN_VIEWS,
};
