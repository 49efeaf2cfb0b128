import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  MODERATION_MESSAGES,
  pageInfoFor,
  type ReportGroup,
  type ReportQueueQuery,
  type ReportQueueResponse,
} from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import { schema, type Tx } from '../../db/index.ts';
import { setCommentFlags, setManuscriptFlags } from './flags.ts';
import { escapeLike } from '../../lib/list-query.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { assertModerator } from './policy.ts';

/** Dismisses open reports in the caller's transaction; returns how many changed. */
export async function dismissOpenReports(
  tx: Tx,
  actorInput: { id: number; role: string },
  reportIds: number[],
): Promise<number> {
  const actor = assertModerator(actorInput);
  if (reportIds.length === 0) return 0;
  const changed = await tx
    .update(schema.reports)
    .set({
      status: 'dismissed',
      resolvedAt: sql`now()`,
      resolvedById: actor.id,
      updatedAt: sql`now()`,
    })
    .where(and(inArray(schema.reports.id, reportIds), eq(schema.reports.status, 'open')))
    .returning({ id: schema.reports.id });
  return changed.length;
}

/**
 * Flags what these reports are about (manuscripts and comments) with one reason, in the
 * caller's transaction; every open report on those elements is resolved. Returns how many
 * elements were flagged.
 */
export async function flagReportedElements(
  ctx: AppContext,
  tx: EventTx,
  actor: { id: number; role: string },
  reportIds: number[],
  reason: string,
): Promise<number> {
  assertModerator(actor);
  if (reportIds.length === 0) return 0;
  const rows = await tx
    .select({ model: schema.reports.modelName, elementId: schema.reports.reportElementId })
    .from(schema.reports)
    .where(inArray(schema.reports.id, reportIds));
  const of = (model: string) => [
    ...new Set(rows.filter((row) => row.model === model).map((row) => row.elementId)),
  ];
  return (
    (await setManuscriptFlags(ctx, tx, actor, of('manuscript'), reason)) +
    (await setCommentFlags(ctx, tx, actor, of('comment'), reason))
  );
}

/**
 * Dismisses reports (nothing to act on): they leave the queue, and the staff reading rule no
 * longer lets staff open what they were about. Returns how many changed; 400 when none of the
 * ids exist.
 */
export async function dismissReports(
  ctx: AppContext,
  actor: { id: number; role: string },
  reportIds: number[],
): Promise<number> {
  assertModerator(actor);
  if (reportIds.length === 0) return 0;
  return ctx.events.transaction(async (tx) => {
    const existing = await tx
      .select({ id: schema.reports.id })
      .from(schema.reports)
      .where(inArray(schema.reports.id, reportIds));
    if (existing.length === 0) throw badRequest({ ids: [MODERATION_MESSAGES.noSuchReports] });
    return dismissOpenReports(tx, actor, reportIds);
  });
}

interface GroupRow {
  model_name: 'comment' | 'manuscript';
  element_id: number;
  latest: string | Date;
  open_count: number;
  total: number;
}

/**
 * The report queue: one entry per reported element (comment or manuscript), the most recently
 * reported first, with the element's text, where it is, and every report on it with its reason.
 * Grouped, filtered, searched and paged in SQL. A private comment's text is shown only while a
 * report on it is open (the staff reading rule).
 */
export async function reportQueue(
  ctx: AppContext,
  query: ReportQueueQuery,
): Promise<ReportQueueResponse> {
  const reports = schema.reports;
  const conditions = [sql`true`];
  if (query.model_name) conditions.push(sql`r.model_name = ${query.model_name}`);
  if (query.q) {
    // Plain text (never a pattern) in the reports' descriptions, the comment or the title.
    const like = `%${escapeLike(query.q)}%`;
    conditions.push(sql`(
      r.reason_description ilike ${like}
      or (r.model_name = 'comment' and exists (select 1 from comments c
            where c.id = r.report_element_id and c.body ilike ${like}))
      or (r.model_name = 'manuscript' and exists (select 1 from manuscripts m
            where m.id = r.report_element_id and m.title ilike ${like})))`);
  }
  const having =
    query.status === 'open' ? sql`having count(*) filter (where r.status = 'open') > 0` : sql``;
  const order = query.order === 'asc' ? sql`asc` : sql`desc`;
  const offset = (query.page - 1) * query.per_page;
  const result = (await ctx.db.execute(sql`
    select r.model_name, r.report_element_id as element_id, max(r.updated_at) as latest,
      (count(*) filter (where r.status = 'open'))::integer as open_count,
      (count(*) over ())::integer as total
    from ${reports} r
    where ${sql.join(conditions, sql` and `)}
    group by r.model_name, r.report_element_id
    ${having}
    order by latest ${order}, r.model_name, r.report_element_id
    limit ${query.per_page} offset ${offset}`)) as unknown as { rows: GroupRow[] };
  let rows = result.rows;
  let total = rows[0]?.total ?? 0;
  // Past the last page: the last page (the list contract), counted once more.
  if (rows.length === 0 && query.page > 1) {
    const counted = (await ctx.db.execute(sql`
      select count(*)::integer as total from (
        select 1 from ${reports} r where ${sql.join(conditions, sql` and `)}
        group by r.model_name, r.report_element_id ${having}) g`)) as unknown as {
      rows: Array<{ total: number }>;
    };
    total = counted.rows[0]?.total ?? 0;
    const last = Math.max(1, Math.ceil(total / query.per_page));
    if (total > 0) return reportQueue(ctx, { ...query, page: last });
    rows = [];
  }
  const items = await presentGroups(ctx, rows);
  return { items, total, page: pageInfoFor(total, query.page, query.per_page) };
}

async function presentGroups(ctx: AppContext, groups: GroupRow[]): Promise<ReportGroup[]> {
  if (groups.length === 0) return [];
  const db = ctx.db;
  const commentIds = groups.filter((g) => g.model_name === 'comment').map((g) => g.element_id);
  const manuscriptIds = groups
    .filter((g) => g.model_name === 'manuscript')
    .map((g) => g.element_id);
  const comments =
    commentIds.length === 0
      ? []
      : await db
          .select({
            id: schema.comments.id,
            body: schema.comments.body,
            deletedAt: schema.comments.deletedAt,
            manuscriptId: schema.comments.manuscriptId,
            flag: schema.comments.moderationFlag,
            reason: schema.comments.moderationReason,
            quote: schema.highlights.selectedText,
            authorId: schema.comments.authorId,
            authorName: schema.users.displayName,
            title: schema.manuscripts.title,
            privateComments: schema.manuscripts.privateComments,
            visibility: schema.manuscripts.visibility,
          })
          .from(schema.comments)
          .innerJoin(schema.highlights, eq(schema.highlights.id, schema.comments.selectionId))
          .innerJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.comments.manuscriptId))
          .innerJoin(schema.users, eq(schema.users.id, schema.comments.authorId))
          .where(inArray(schema.comments.id, commentIds));
  const manuscripts =
    manuscriptIds.length === 0
      ? []
      : await db
          .select({
            id: schema.manuscripts.id,
            title: schema.manuscripts.title,
            summary: schema.manuscripts.summary,
            archivedAt: schema.manuscripts.archivedAt,
            flag: schema.manuscripts.moderationFlag,
            reason: schema.manuscripts.moderationReason,
            authorId: schema.users.id,
            authorName: schema.users.displayName,
          })
          .from(schema.manuscripts)
          .innerJoin(schema.users, eq(schema.users.id, schema.manuscripts.userId))
          .where(inArray(schema.manuscripts.id, manuscriptIds));
  const reportRows = await db
    .select({
      id: schema.reports.id,
      model: schema.reports.modelName,
      elementId: schema.reports.reportElementId,
      reason: schema.reportReasons.reason,
      description: schema.reports.reasonDescription,
      reporterId: schema.users.id,
      reporterName: schema.users.displayName,
      status: schema.reports.status,
      updatedAt: schema.reports.updatedAt,
    })
    .from(schema.reports)
    .innerJoin(schema.reportReasons, eq(schema.reportReasons.id, schema.reports.reasonId))
    .innerJoin(schema.users, eq(schema.users.id, schema.reports.reporterId))
    .where(
      sql`(${schema.reports.modelName}, ${schema.reports.reportElementId}) in (${sql.join(
        groups.map((g) => sql`(${g.model_name}, ${g.element_id})`),
        sql`, `,
      )})`,
    )
    .orderBy(sql`${schema.reports.updatedAt} desc`, sql`${schema.reports.id} desc`);
  return groups.map((group) => {
    const own = reportRows.filter(
      (row) => row.model === group.model_name && row.elementId === group.element_id,
    );
    const base = {
      model_name: group.model_name,
      element_id: group.element_id,
      open_count: group.open_count,
      latest: new Date(group.latest).toISOString(),
      reports: own.map((row) => ({
        id: row.id,
        reason: row.reason,
        description: row.description,
        reporter: { id: row.reporterId, display_name: row.reporterName },
        status: row.status,
        created: row.updatedAt.toISOString(),
      })),
    };
    if (group.model_name === 'comment') {
      const comment = comments.find((row) => row.id === group.element_id);
      if (!comment) return { ...base, ...gone('comment') };
      // As in the admin lists: private writing only while a report on it is open.
      const isPrivate =
        comment.privateComments ||
        comment.visibility === 'private' ||
        comment.visibility === 'restricted';
      const hidden = isPrivate && group.open_count === 0;
      return {
        ...base,
        text: hidden ? MODERATION_MESSAGES.privateUnlessReported : comment.body,
        context: hidden ? comment.title : `On “${comment.quote}” in ${comment.title}`,
        manuscript_id: comment.manuscriptId,
        author: { id: comment.authorId, display_name: comment.authorName },
        missing: comment.deletedAt !== null,
        moderation_flag: comment.flag,
        moderation_reason: comment.reason,
      };
    }
    const manuscript = manuscripts.find((row) => row.id === group.element_id);
    if (!manuscript) return { ...base, ...gone('manuscript') };
    return {
      ...base,
      text: manuscript.summary ? `${manuscript.title}\n\n${manuscript.summary}` : manuscript.title,
      context: `By ${manuscript.authorName}`,
      manuscript_id: manuscript.id,
      author: { id: manuscript.authorId, display_name: manuscript.authorName },
      missing: manuscript.archivedAt !== null,
      moderation_flag: manuscript.flag,
      moderation_reason: manuscript.reason,
    };
  });
}

const gone = (what: string) => ({
  text: MODERATION_MESSAGES.notFound(what),
  context: '',
  manuscript_id: null,
  author: null,
  missing: true,
  moderation_flag: false,
  moderation_reason: null,
});
