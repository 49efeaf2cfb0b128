import { eq } from 'drizzle-orm';
import { READ_GATE_MESSAGES, type ReaderPageResponse } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema } from '../../db/index.ts';
import { forbidden, notFound, unauthorized } from '../../lib/http-errors.ts';
import { readerAccessData } from '../invites/reader-page.ts';
import { canRead, isOwner, readGate, readRefusal, type ReaderAccess } from '../access/policy.ts';
import type { ManuscriptRow } from './presenter.ts';
import { findManuscript, presentOne } from './queries.ts';
import { loadReaderAccess } from '../access/reader-access.ts';
import { listStaffOpenings, recordStaffOpening } from '../access/staff-openings.ts';

/**
 * The manuscript if the viewer may open it (its reader page, gate included), with their
 * access; 401 when logging in would help, 404 otherwise.
 */
async function findOpenable(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<{ manuscript: ManuscriptRow; access: ReaderAccess }> {
  const manuscript = await findManuscript(ctx.db, manuscriptId);
  if (!manuscript) throw notFound();
  const access = await loadReaderAccess(ctx, viewer, manuscript);
  const refusal = readRefusal(viewer, manuscript, access);
  if (refusal === 'login') throw unauthorized();
  if (refusal === 'hidden') throw notFound();
  return { manuscript, access };
}

/**
 * The manuscript if the viewer may read its text: findOpenable, then 403 while a gate (18+,
 * questionnaire, approval) stands.
 */
export async function findReadable(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ManuscriptRow> {
  const { manuscript, access } = await findOpenable(ctx, viewer, manuscriptId);
  const gate = readGate(viewer, manuscript, access);
  if (gate) throw forbidden(READ_GATE_MESSAGES[gate]);
  return manuscript;
}

/** True when the viewer may read the manuscript (for checks that answer no rather than throw). */
export async function mayRead(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscript: ManuscriptRow,
): Promise<boolean> {
  return canRead(viewer, manuscript, await loadReaderAccess(ctx, viewer, manuscript));
}

/** The reader's answer but its text: what differs per viewer, and where the text comes from. */
export interface ReaderMeta {
  view: Omit<ReaderPageResponse, 'html' | 'toc'>;
  /** The version whose text this viewer is sent; null while a gate withholds it, or none yet. */
  versionId: number | null;
}

/**
 * The reader's page configuration without the text (html, toc): cheap, so a returning reader's
 * `304` needs neither the text nor its hash (reader-wire.ts). A gate withholds the text.
 */
export async function readerMeta(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ReaderMeta> {
  const { manuscript, access } = await findOpenable(ctx, viewer, manuscriptId);
  const owner = isOwner(viewer, manuscript);
  // Staff reading what only an open report lets them: recorded, and shown to the author.
  await recordStaffOpening(ctx.db, viewer, manuscript, access);
  const gate = readGate(viewer, manuscript, access);
  const [version] = manuscript.currentVersionId
    ? await ctx.db
        .select({ id: schema.manuscriptVersions.id, words: schema.manuscriptVersions.words })
        .from(schema.manuscriptVersions)
        .where(eq(schema.manuscriptVersions.id, manuscript.currentVersionId))
    : [];
  return {
    versionId: gate === null ? (version?.id ?? null) : null,
    view: {
      manuscript_id: manuscript.id,
      manuscript_user_id: manuscript.userId,
      visibility: manuscript.visibility,
      current_user_id: viewer?.id ?? null,
      restricted_mature: gate === 'mature',
      restricted_moderation: manuscript.moderationFlag && !owner,
      moderationReason: manuscript.moderationReason,
      manuscript: await presentOne(ctx.db, manuscript),
      words: version?.words ?? manuscript.words,
      ...(await readerAccessData(ctx, viewer, manuscript, gate)),
      staff_openings: owner ? await listStaffOpenings(ctx.db, manuscript.id) : [],
    },
  };
}

/** readerMeta with its text: the whole answer as one object (the page, and plain JSON). */
export async function withText(ctx: AppContext, meta: ReaderMeta): Promise<ReaderPageResponse> {
  const [version] =
    meta.versionId === null
      ? []
      : await ctx.db
          .select({ html: schema.manuscriptVersions.html, toc: schema.manuscriptVersions.toc })
          .from(schema.manuscriptVersions)
          .where(eq(schema.manuscriptVersions.id, meta.versionId));
  return { ...meta.view, html: version?.html ?? '', toc: version?.toc ?? [] };
}

/**
 * The reader's page configuration and text. While a gate stands (18+ not certified,
 * questionnaire unanswered or not approved) the text is withheld (html "", toc []) and the
 * page shows the gate instead.
 */
export async function readerView(
  ctx: AppContext,
  viewer: UserRow | null,
  manuscriptId: number,
): Promise<ReaderPageResponse> {
  return withText(ctx, await readerMeta(ctx, viewer, manuscriptId));
}
