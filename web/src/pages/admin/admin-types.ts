// The wire shapes of /admin/api as the admin UI reads them: the contract's zod schemas in
// common/src/schemas/admin.ts. The UI trusts _meta to describe every section, so nothing
// here names a section.
export type {
  AdminDashboardResponse as AdminDashboard,
  AdminExportType as ExportType,
  AdminItem,
  AdminMetaResponse as AdminMeta,
  BulkActionMeta,
  DashboardMetric,
  FieldMeta,
  SectionMeta,
} from '@margins/common';

/** One option of a lookup (GET /admin/api/S/lookup). */
export interface LookupOption {
  id: number;
  label: string;
}
