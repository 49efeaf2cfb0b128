import { createContext, useContext } from 'react';
import { useResourceContext } from 'react-admin';
import type { AdminMeta, FieldMeta, SectionMeta } from './admin-types.ts';
import type { AdminDataProvider } from './data-provider.ts';
import type { SectionViewScreen } from './section-views.ts';

/** What every admin screen reads: the caller's sections (from _meta) and the data provider. */
export interface AdminSetup {
  meta: AdminMeta;
  sections: ReadonlyMap<string, SectionMeta>;
  dataProvider: AdminDataProvider;
  /** The sections' own screens (the report queue), in menu order. */
  views: SectionViewScreen[];
}

export const AdminSetupContext = createContext<AdminSetup | null>(null);

/** The admin area's setup; only inside the admin page. */
export function useAdminSetup(): AdminSetup {
  const setup = useContext(AdminSetupContext);
  if (!setup) throw new Error('useAdminSetup is used outside the admin page.');
  return setup;
}

/** The meta of the section the current screen shows (react-admin's resource). */
export function useSection(): SectionMeta {
  const resource = useResourceContext();
  const { sections } = useAdminSetup();
  const section = resource ? sections.get(resource) : undefined;
  if (!section) throw new Error(`No admin section named "${resource ?? ''}".`);
  return section;
}

/** The text that names an item of a section: its label field, else its number. */
export function itemLabel(
  section: SectionMeta | undefined,
  record: Record<string, unknown>,
): string {
  const value = section ? record[section.labelField] : undefined;
  if (typeof value === 'string' && value.trim()) return value;
  if (typeof value === 'number') return String(value);
  return `#${String(record.id)}`;
}

/** The fields of a section that a view shows or edits. */
export function fieldsFor(
  section: SectionMeta,
  view: 'list' | 'filter' | 'search' | 'create' | 'edit',
): FieldMeta[] {
  switch (view) {
    case 'list':
      return section.fields.filter((field) => field.list);
    case 'filter':
      return section.fields.filter((field) => field.filterable);
    case 'search':
      return section.fields.filter((field) => field.searchable);
    case 'create':
      return section.fields.filter((field) => field.create);
    case 'edit':
      return section.fields.filter((field) => field.edit);
  }
}
