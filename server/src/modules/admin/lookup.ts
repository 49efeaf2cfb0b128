import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ADMIN_LOOKUP_LIMIT, ADMIN_MESSAGES, type AdminRole } from '@margins/common';
import type { Executor } from '../../db/index.ts';
import { badRequest, forbidden } from '../../lib/http-errors.ts';
import { escapeLike } from '../../lib/list-query.ts';
import { canSeeSection, canUseView, fieldsFor } from './policy.ts';
import type { SectionDeclaration } from './types.ts';

/**
 * The section whose items a lookup offers: the referenced section of a reference field of
 * `section`, or `section` itself for `field=id`. The caller must be allowed to look there too.
 */
export function lookupTarget(
  section: SectionDeclaration,
  role: AdminRole,
  field: string,
  sectionNamed: (name: string) => SectionDeclaration | undefined,
): SectionDeclaration {
  if (field === 'id') return section;
  const declared = fieldsFor(section, role).find(
    (candidate) => candidate.name === field && candidate.type === 'reference',
  );
  const target = declared?.reference ? sectionNamed(declared.reference) : undefined;
  if (!target) throw badRequest({ field: [ADMIN_MESSAGES.notReferenceField] });
  if (!canSeeSection(role, target) || !canUseView(role, target, 'lookup')) throw forbidden();
  return target;
}

/** Up to 20 options `{id, label}` of a section whose label (or id) matches `q`. */
export async function lookupOptions(
  db: Executor,
  target: SectionDeclaration,
  role: AdminRole,
  q: string | undefined,
): Promise<Array<{ id: number; label: string }>> {
  const labelField = fieldsFor(target, role).find((field) => field.name === target.labelField);
  const label: PgColumn | SQL =
    (labelField?.source as PgColumn | SQL | undefined) ?? sql`${target.id}::text`;
  const conditions: Array<SQL | undefined> = [target.scope];
  if (q) {
    const byId = /^\d{1,9}$/.test(q) ? eq(target.id, Number(q)) : undefined;
    conditions.push(or(ilike(sql`(${label})::text`, `%${escapeLike(q)}%`), byId));
  }
  const rows = await db
    .select({ id: target.id, label: sql<string | null>`(${label})::text` })
    .from(target.table)
    .where(and(...conditions))
    .orderBy(asc(label), asc(target.id))
    .limit(ADMIN_LOOKUP_LIMIT);
  return rows.map((row) => ({ id: Number(row.id), label: row.label ?? `#${row.id}` }));
}
