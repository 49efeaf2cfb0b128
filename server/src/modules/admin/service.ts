import { ADMIN_MESSAGES, type AdminBulkBody } from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { fieldErrorsOf } from '../../lib/field-errors.ts';
import {
  badRequest,
  conflict,
  forbidden,
  notFound,
  type FieldErrors,
} from '../../lib/http-errors.ts';
import { recordAudit } from './audit.ts';
import { bulkActionsFor, fieldsFor } from './policy.ts';
import {
  columnValues,
  deleteRow,
  insertRow,
  readFullItem,
  readItems,
  updateRow,
  type Item,
} from './rows.ts';
import type { AdminActor, SectionDeclaration, WriteContext } from './types.ts';

/** One item as this role sees it, or 404. */
export async function itemDetails(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  id: number,
): Promise<Item> {
  const item = (await readItems(ctx.db, section, actor.role, [id])).get(id);
  if (!item) throw notFound();
  return item;
}

/** Keys of a body that the schema does not know: each a field error, never silently dropped. */
function unknownKeys(body: Record<string, unknown>, known: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  for (const key of Object.keys(body)) {
    if (!Object.hasOwn(known, key)) errors[key] = [ADMIN_MESSAGES.notWritableField];
  }
  return errors;
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest({ _: ['Send the fields as a JSON object.'] });
  }
  return body as Record<string, unknown>;
}

function parseInput(
  schema: NonNullable<SectionDeclaration['createSchema']>,
  raw: unknown,
): Record<string, unknown> {
  const body = asObject(raw);
  const unknown = unknownKeys(body, schema.shape);
  if (Object.keys(unknown).length) throw badRequest(unknown);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw badRequest(fieldErrorsOf(parsed.error));
  return parsed.data as Record<string, unknown>;
}

/** A unique or foreign-key violation as an answer a person can act on. */
function explainWriteError(section: SectionDeclaration, error: unknown): unknown {
  if (isUniqueViolation(error)) {
    const detail = String(
      (error as { detail?: string; cause?: { detail?: string } }).cause?.detail ??
        (error as { detail?: string }).detail ??
        '',
    );
    // "Key (email)=(…)" or, for an index on an expression, "Key (lower(handle))=(…)".
    const key = /Key \((.+?)\)=/.exec(detail)?.[1] ?? '';
    const column = key.replace(/^lower\((.*)\)$/, '$1');
    const field = section.fields.find(
      (candidate) => (candidate.source as { name?: string }).name === column,
    );
    return badRequest({ [field?.name ?? '_']: [ADMIN_MESSAGES.alreadyTaken] });
  }
  const code =
    (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  // A foreign key still pointing here: 23503 (no action) or 23001 (ON DELETE RESTRICT).
  if (code === '23503' || code === '23001') return conflict(ADMIN_MESSAGES.stillUsed);
  return error;
}

async function writing<Result>(
  ctx: AppContext,
  section: SectionDeclaration,
  work: (tx: EventTx) => Promise<Result>,
): Promise<Result> {
  try {
    return await ctx.events.transaction(work);
  } catch (error) {
    throw explainWriteError(section, error);
  }
}

async function checkRules(
  write: WriteContext,
  section: SectionDeclaration,
  change: { id: number | null; before: Item | null; input: Record<string, unknown> },
) {
  const errors = await section.checkWrite?.(write, change);
  if (errors && Object.keys(errors).length) throw badRequest(errors);
}

/** POST /admin/api/S: validate, check the rules, insert, audit; the new item. */
export async function createItem(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  body: unknown,
): Promise<Item> {
  if (!section.createSchema) throw forbidden(ADMIN_MESSAGES.readOnly);
  const input = parseInput(section.createSchema, body);
  return writing(ctx, section, async (tx) => {
    await checkRules({ ctx, tx, actor }, section, { id: null, before: null, input });
    const extra = (await section.createValues?.(input)) ?? {};
    const id = await insertRow(tx, section, { ...columnValues(section, input), ...extra });
    const after = await readFullItem(tx, section, id);
    await recordAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      section: section.name,
      action: 'create',
      entityIds: [id],
      after,
    });
    return (await readItems(tx, section, actor.role, [id])).get(id)!;
  });
}

async function applyUpdate(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  id: number,
  input: Record<string, unknown>,
  action: 'update' | 'field',
): Promise<Item> {
  return writing(ctx, section, async (tx) => {
    const before = await readFullItem(tx, section, id);
    if (!before) throw notFound();
    const write = { ctx, tx, actor };
    await checkRules(write, section, { id, before, input });
    if (section.update) await section.update(write, id, input);
    else await updateRow(tx, section, id, columnValues(section, input));
    const after = (await readFullItem(tx, section, id))!;
    await section.afterUpdate?.(write, before, after);
    await recordAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      section: section.name,
      action,
      entityIds: [id],
      before,
      after,
    });
    return (await readItems(tx, section, actor.role, [id])).get(id)!;
  });
}

/** PUT /admin/api/S/:id: the editable fields. */
export async function updateItem(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  id: number,
  body: unknown,
): Promise<Item> {
  if (!section.updateSchema) throw forbidden(ADMIN_MESSAGES.readOnly);
  const input = parseInput(section.updateSchema, body);
  return applyUpdate(ctx, section, actor, id, input, 'update');
}

/** POST /admin/api/S/:id/field: one field of the inline allow-list. */
export async function updateOneField(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  id: number,
  name: string,
  value: unknown,
): Promise<Item> {
  const inline = fieldsFor(section, actor.role).find(
    (field) => field.name === name && field.inline,
  );
  if (!inline || !section.updateSchema?.shape[name]) {
    throw badRequest({ name: [ADMIN_MESSAGES.notInlineField] });
  }
  const input = parseInput(section.updateSchema.pick({ [name]: true } as never), { [name]: value });
  return applyUpdate(ctx, section, actor, id, input, 'field');
}

/** Deletes one row in a write (the section's own remove, else DELETE by id). */
export async function removeRow(write: WriteContext, section: SectionDeclaration, id: number) {
  if (section.remove) return section.remove(write, id);
  return deleteRow(write.tx, section, id);
}

/** DELETE /admin/api/S/:id. */
export async function deleteItem(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  id: number,
): Promise<void> {
  if (section.deletable === false) throw forbidden(ADMIN_MESSAGES.readOnly);
  await writing(ctx, section, async (tx) => {
    const before = await readFullItem(tx, section, id);
    if (!before) throw notFound();
    await removeRow({ ctx, tx, actor }, section, id);
    await recordAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      section: section.name,
      action: 'delete',
      entityIds: [id],
      before,
    });
  });
}

/** POST /admin/api/S/bulk: one action over many ids, one transaction, one audit row. */
export async function runBulkAction(
  ctx: AppContext,
  section: SectionDeclaration,
  actor: AdminActor,
  body: AdminBulkBody,
): Promise<number> {
  const action = bulkActionsFor(section, actor.role).find(
    (candidate) => candidate.name === body.action,
  );
  if (!action) {
    const exists = bulkActionsFor(section, 'admin').some(
      (candidate) => candidate.name === body.action,
    );
    if (exists) throw forbidden();
    throw badRequest({ action: [ADMIN_MESSAGES.unknownAction] });
  }
  const input = body.input ?? {};
  if (action.needsReason && !input.reason) {
    throw badRequest({ reason: [ADMIN_MESSAGES.reasonRequired] });
  }
  const ids = [...new Set(body.ids)];
  return writing(ctx, section, async (tx) => {
    const before = await readItems(tx, section, 'admin', ids);
    const affected = await action.handler(ctx, tx, ids, input, actor);
    const after = await readItems(tx, section, 'admin', ids);
    await recordAudit(tx, {
      actorId: actor.id,
      actorRole: actor.role,
      section: section.name,
      action: action.name,
      entityIds: [...before.keys()],
      before: [...before.values()],
      after: { input, affected, items: [...after.values()] },
    });
    return affected;
  });
}
