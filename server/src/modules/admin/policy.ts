import type { AdminRole } from '@margins/common';
import type { UserRow } from '../../context.ts';
import type { AdminActor, AdminView, FieldDeclaration, SectionDeclaration } from './types.ts';

/** The caller as an admin actor, or null for everyone who is not staff (they get 404). */
export function adminActorOf(user: Pick<UserRow, 'id' | 'role'> | null): AdminActor | null {
  if (!user) return null;
  if (user.role === 'admin' || user.role === 'moderator') return { id: user.id, role: user.role };
  return null;
}

/** The views a section has at all, whoever asks (a read-only section has no writes). */
export function sectionHasView(section: SectionDeclaration, view: AdminView): boolean {
  switch (view) {
    case 'create':
      return !!section.createSchema;
    case 'update':
      return !!section.updateSchema;
    case 'field':
      return !!section.updateSchema && section.fields.some((field) => field.inline);
    case 'delete':
      return section.deletable !== false;
    case 'bulk':
      return bulkActionsFor(section, 'admin').length > 0;
    case 'models':
      return !!section.models;
    case 'view':
      return (section.views?.length ?? 0) > 0;
    default:
      return true;
  }
}

/** May this role use this section at all (is it in their `_meta`)? */
export function canSeeSection(role: AdminRole, section: SectionDeclaration): boolean {
  return role === 'admin' || (section.moderatorViews?.length ?? 0) > 0;
}

/** May this role use this view of this section (admins: every view the section has)? */
export function canUseView(role: AdminRole, section: SectionDeclaration, view: AdminView): boolean {
  if (role === 'admin') return true;
  return section.moderatorViews?.includes(view) ?? false;
}

/** The fields this role may see. */
export function fieldsFor(section: SectionDeclaration, role: AdminRole): FieldDeclaration[] {
  return section.fields.filter((field) => !field.hiddenFrom?.includes(role));
}

/** The bulk actions this role may run (a generic delete for sections that can delete). */
export function bulkActionsFor(section: SectionDeclaration, role: AdminRole) {
  return (section.bulkActions ?? []).filter((action) => (action.roles ?? ['admin']).includes(role));
}
