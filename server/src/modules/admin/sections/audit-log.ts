import { sql } from 'drizzle-orm';
import { ADMIN_MESSAGES, ADMIN_ROLES, idField } from '@margins/common';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';

const audit = schema.auditLog;

/** Every staff write, read only (admins): list, details, export. */
export const auditLogSection: SectionDeclaration = {
  name: 'audit-log',
  label: 'Audit log',
  table: audit,
  id: audit.id,
  labelField: 'action',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  deletable: false,
  fields: [
    {
      name: 'created_at',
      label: 'When',
      type: 'date',
      source: audit.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'actor_id',
      label: 'Who',
      type: 'reference',
      reference: 'user',
      source: audit.actorId,
      list: true,
      sortable: true,
      filterable: true,
    },
    {
      name: 'actor_role',
      label: 'Role',
      type: 'enum',
      choices: ADMIN_ROLES,
      source: audit.actorRole,
      list: true,
      filterable: true,
    },
    {
      name: 'section',
      label: 'Section',
      type: 'text',
      source: audit.section,
      list: true,
      sortable: true,
      filterable: true,
      searchable: true,
    },
    {
      name: 'action',
      label: 'Action',
      type: 'text',
      source: audit.action,
      list: true,
      sortable: true,
      filterable: true,
      searchable: true,
    },
    {
      name: 'entity_ids',
      label: 'Ids',
      type: 'json',
      source: audit.entityIds,
      list: true,
      filterable: true,
      // ?entity_ids=7: the changes that touched item 7.
      filter: {
        schema: idField(ADMIN_MESSAGES.badId),
        condition: (id: number) => sql`${id} = any(${audit.entityIds})`,
      },
    },
    { name: 'before', label: 'Before', type: 'json', source: audit.before },
    { name: 'after', label: 'After', type: 'json', source: audit.after },
  ],
};
