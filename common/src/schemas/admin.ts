// The /admin/api wire contract (issue 14): section metadata, the dashboard, bulk actions,
// lookups and one-field updates. The server's registry (server/src/modules/admin/) produces
// these; the admin UI builds its screens from `_meta`.
import { z } from 'zod';
import { ADMIN_BULK_MAX_IDS, ADMIN_LOOKUP_LIMIT, ADMIN_REASON_MAX_LENGTH } from '../constants.ts';
import { ADMIN_MESSAGES } from '../messages-admin.ts';
import { idField } from './fields.ts';

export const ADMIN_ROLES = ['admin', 'moderator'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const ADMIN_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'boolean',
  'date',
  'enum',
  'reference',
  'json',
] as const;
export type AdminFieldType = (typeof ADMIN_FIELD_TYPES)[number];

export const ADMIN_EXPORT_TYPES = ['csv', 'json', 'xlsx'] as const;
export type AdminExportType = (typeof ADMIN_EXPORT_TYPES)[number];

/** One presented field of a section, and what each view may do with it. */
export const fieldMeta = z.object({
  /** The item's key (snake_case). */
  name: z.string(),
  label: z.string(),
  type: z.enum(ADMIN_FIELD_TYPES),
  /** The values an enum takes. */
  choices: z.array(z.string()).optional(),
  /** The section a reference points to (its lookup gives the options). */
  reference: z.string().optional(),
  /** Shown as a column of the list. */
  list: z.boolean(),
  sortable: z.boolean(),
  /** May be given as `?<name>=<value>` on the list and the export. */
  filterable: z.boolean(),
  /** Looked in by `q`. */
  searchable: z.boolean(),
  /** Set by the create form. */
  create: z.boolean(),
  /** Set by the edit form. */
  edit: z.boolean(),
  /** The one-field ajax update may set it. */
  inline: z.boolean(),
  required: z.boolean(),
});
export type FieldMeta = z.infer<typeof fieldMeta>;

export const bulkActionMeta = z.object({
  name: z.string(),
  label: z.string(),
  /** Asked before it runs; null: no confirmation. */
  confirm: z.string().nullable(),
});
export type BulkActionMeta = z.infer<typeof bulkActionMeta>;

export const sectionMeta = z.object({
  /** The URL name: /admin/api/<name>. */
  name: z.string(),
  label: z.string(),
  /** The field that names an item (titles, lookups). */
  labelField: z.string(),
  fields: z.array(fieldMeta),
  bulkActions: z.array(bulkActionMeta),
  exports: z.array(z.enum(ADMIN_EXPORT_TYPES)),
  canCreate: z.boolean(),
  canUpdate: z.boolean(),
  canDelete: z.boolean(),
  /** Screens of its own beside the nine views: GET /admin/api/<name>/views/<view>. */
  views: z.array(z.object({ name: z.string(), label: z.string() })),
  defaultSort: z.string(),
  defaultOrder: z.enum(['asc', 'desc']),
});
export type SectionMeta = z.infer<typeof sectionMeta>;

/** GET /admin/api/_meta: only the sections the caller may use. */
export const adminMetaResponse = z.object({
  role: z.enum(ADMIN_ROLES),
  sections: z.array(sectionMeta),
});
export type AdminMetaResponse = z.infer<typeof adminMetaResponse>;

export const dashboardMetric = z.object({
  name: z.string(),
  label: z.string(),
  total: z.number().int(),
  /** One entry a day over the last 30 days (UTC), oldest first. */
  series: z.array(z.object({ date: z.string(), count: z.number().int() })),
});
export type DashboardMetric = z.infer<typeof dashboardMetric>;

/** GET /admin/api/_dashboard. */
export const adminDashboardResponse = z.object({ metrics: z.array(dashboardMetric) });
export type AdminDashboardResponse = z.infer<typeof adminDashboardResponse>;

/** An item of any section: `id` and the section's presented fields (dates as ISO strings). */
export const adminItem = z.object({ id: z.number().int() }).catchall(z.unknown());
export type AdminItem = z.infer<typeof adminItem>;
export const adminItemResponse = z.object({ item: adminItem });

const rowId = idField(ADMIN_MESSAGES.badId);

export const adminSectionParams = z.object({ section: z.string().max(100) });
export const adminItemParams = z.object({ section: z.string().max(100), id: rowId });
export const adminViewParams = z.object({
  section: z.string().max(100),
  view: z.string().max(100),
});
export const adminExportParams = z.object({
  section: z.string().max(100),
  type: z.enum(ADMIN_EXPORT_TYPES, { error: ADMIN_MESSAGES.badExportType }),
});

/** POST /admin/api/S/bulk. */
export const adminBulkBody = z.object({
  action: z.string({ error: ADMIN_MESSAGES.chooseAction }).min(1, ADMIN_MESSAGES.chooseAction),
  ids: z
    .array(rowId, { error: ADMIN_MESSAGES.chooseItems })
    .min(1, ADMIN_MESSAGES.chooseItems)
    .max(ADMIN_BULK_MAX_IDS, ADMIN_MESSAGES.tooManyItems),
  input: z
    .object({
      reason: z
        .string()
        .trim()
        .max(ADMIN_REASON_MAX_LENGTH, `Use at most ${ADMIN_REASON_MAX_LENGTH} characters.`)
        .optional(),
    })
    .optional(),
});
export type AdminBulkBody = z.infer<typeof adminBulkBody>;
export const adminBulkResponse = z.object({ affected: z.number().int() });

/** GET /admin/api/S/lookup?field=&q=. */
export const adminLookupQuery = z.object({
  field: z.string({ error: ADMIN_MESSAGES.lookupField }).min(1, ADMIN_MESSAGES.lookupField),
  q: z.string().trim().max(200).optional(),
});
export const adminLookupResponse = z.object({
  /** At most ADMIN_LOOKUP_LIMIT options. */
  options: z.array(z.object({ id: z.number().int(), label: z.string() })).max(ADMIN_LOOKUP_LIMIT),
});
export type AdminLookupResponse = z.infer<typeof adminLookupResponse>;

/** POST /admin/api/S/:id/field. */
export const adminFieldBody = z.object({
  name: z.string({ error: ADMIN_MESSAGES.fieldName }).min(1, ADMIN_MESSAGES.fieldName),
  value: z.unknown(),
});
export type AdminFieldBody = z.infer<typeof adminFieldBody>;

/** GET /admin/api/moderation-report/models: what can be reported. */
export const adminModelsResponse = z.object({
  models: z.array(z.object({ name: z.string(), label: z.string() })),
});
