// The wire shapes of /admin/api as the admin UI reads them (the contract of issue 14; the
// server's zod schemas are in common/src/schemas/admin.ts). Only types: the UI trusts the
// server's _meta to describe every section, so nothing here names a section.

export type AdminRole = 'admin' | 'moderator';

export type FieldType =
  'text' | 'textarea' | 'number' | 'boolean' | 'date' | 'enum' | 'reference' | 'json';

export type ExportType = 'csv' | 'json' | 'xlsx';

/** One field of a section: how it is shown, edited, searched and filtered. */
export interface FieldMeta {
  name: string;
  label: string;
  type: FieldType;
  choices?: string[];
  /** The section a reference field points to. */
  reference?: string;
  list: boolean;
  sortable: boolean;
  filterable: boolean;
  searchable: boolean;
  create: boolean;
  edit: boolean;
  /** The one-field ajax update may set it (edited in place in the list). */
  inline: boolean;
  required: boolean;
}

export interface BulkActionMeta {
  name: string;
  label: string;
  /** The question asked before the action runs; null: it runs at once. */
  confirm: string | null;
}

/** One section of the admin area, as GET /admin/api/_meta describes it. */
export interface SectionMeta {
  name: string;
  label: string;
  /** The field that names an item (the title of its page, the label of references to it). */
  labelField: string;
  fields: FieldMeta[];
  bulkActions: BulkActionMeta[];
  exports: ExportType[];
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
  defaultSort: string;
  defaultOrder: 'asc' | 'desc';
}

export interface AdminMeta {
  role: AdminRole;
  sections: SectionMeta[];
}

export interface DashboardMetric {
  name: string;
  label: string;
  total: number;
  /** 30 days, oldest first. */
  series: Array<{ date: string; count: number }>;
}

export interface AdminDashboard {
  metrics: DashboardMetric[];
}

export interface LookupOption {
  id: number;
  label: string;
}

/** An item of any section: its id and the section's presented fields. */
export interface AdminItem {
  id: number;
  [field: string]: unknown;
}
