import { inArray } from 'drizzle-orm';
import { ADMIN_EXPORT_TYPES, type AdminRole, type SectionMeta } from '@margins/common';
import { SECTIONS } from './sections/index.ts';
import { bulkActionsFor, canSeeSection, canUseView, fieldsFor, sectionHasView } from './policy.ts';
import { removeRow } from './service.ts';
import type { BulkActionDeclaration, SectionDeclaration } from './types.ts';

/** Every section that can delete also deletes in bulk (admins only), one by one as DELETE. */
function bulkDeleteOf(section: SectionDeclaration): BulkActionDeclaration {
  return {
    name: 'delete',
    label: 'Delete',
    confirm: 'Delete the chosen items? This cannot be undone.',
    roles: section.moderatorViews?.includes('delete') ? ['admin', 'moderator'] : ['admin'],
    handler: async (ctx, tx, ids, _input, actor) => {
      const rows = await tx
        .select({ id: section.id })
        .from(section.table)
        .where(inArray(section.id, ids));
      for (const row of rows) await removeRow({ ctx, tx, actor }, section, Number(row.id));
      return rows.length;
    },
  };
}

function withDefaults(section: SectionDeclaration): SectionDeclaration {
  if (section.deletable === false) return section;
  const own = section.bulkActions ?? [];
  if (own.some((action) => action.name === 'delete')) return section;
  return { ...section, bulkActions: [...own, bulkDeleteOf(section)] };
}

const registry = new Map<string, SectionDeclaration>(
  SECTIONS.map((section) => [section.name, withDefaults(section)]),
);

/** The declared section of this URL name, or undefined. */
export function sectionNamed(name: string): SectionDeclaration | undefined {
  return registry.get(name);
}

/** Every declared section, in menu order. */
export function allSections(): SectionDeclaration[] {
  return [...registry.values()];
}

/** A section as one role may use it (the `_meta` entry). */
function sectionMetaFor(section: SectionDeclaration, role: AdminRole): SectionMeta {
  const can = (view: Parameters<typeof canUseView>[2]) =>
    sectionHasView(section, view) && canUseView(role, section, view);
  return {
    name: section.name,
    label: section.label,
    labelField: section.labelField,
    fields: fieldsFor(section, role).map((field) => ({
      name: field.name,
      label: field.label,
      type: field.type,
      ...(field.choices ? { choices: [...field.choices] } : {}),
      ...(field.reference ? { reference: field.reference } : {}),
      list: field.list ?? false,
      sortable: field.sortable ?? false,
      filterable: (field.filterable ?? false) && (field.type !== 'json' || !!field.filter),
      searchable: field.searchable ?? false,
      create: can('create') && (field.create ?? false),
      edit: can('update') && (field.edit ?? false),
      inline: can('field') && (field.inline ?? false),
      required: field.required ?? false,
    })),
    bulkActions: can('bulk')
      ? bulkActionsFor(section, role).map(({ name, label, confirm }) => ({ name, label, confirm }))
      : [],
    exports: can('export') ? [...ADMIN_EXPORT_TYPES] : [],
    canCreate: can('create'),
    canUpdate: can('update'),
    canDelete: can('delete'),
    views: can('view') ? (section.views ?? []).map(({ name, label }) => ({ name, label })) : [],
    defaultSort: section.defaultSort,
    defaultOrder: section.defaultOrder,
  };
}

/** The sections this role may use. */
export function sectionsFor(role: AdminRole): SectionMeta[] {
  return allSections()
    .filter((section) => canSeeSection(role, section))
    .map((section) => sectionMetaFor(section, role));
}
