import { and, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import { schema, type Executor } from '../../db/index.ts';
import type { UserRow } from '../../context.ts';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';

export type InviteRow = typeof schema.invites.$inferSelect;

/** An invite with what its presentation needs. */
export interface InviteDetails {
  invite: InviteRow;
  manuscript: ManuscriptRow;
  author: UserRow;
  /** The invited, redeeming or requesting reader, or null. */
  user: UserRow | null;
}

export async function findInvite(db: Executor, id: number): Promise<InviteRow | null> {
  const [row] = await db.select().from(schema.invites).where(eq(schema.invites.id, id));
  return row ?? null;
}

export async function findInviteByCode(db: Executor, code: string): Promise<InviteRow | null> {
  const [row] = await db.select().from(schema.invites).where(eq(schema.invites.code, code));
  return row ?? null;
}

/** The user's own row for a manuscript (invite, redemption or request), or null. */
export async function findReaderRow(
  db: Executor,
  manuscriptId: number,
  userId: number,
): Promise<InviteRow | null> {
  const [row] = await db
    .select()
    .from(schema.invites)
    .where(
      and(eq(schema.invites.manuscriptId, manuscriptId), eq(schema.invites.invitedUserId, userId)),
    );
  return row ?? null;
}

/** Every invite, link, redemption and request of a manuscript, newest first (author's list). */
export async function listManuscriptInvites(
  db: Executor,
  manuscriptId: number,
): Promise<InviteRow[]> {
  return db
    .select()
    .from(schema.invites)
    .where(eq(schema.invites.manuscriptId, manuscriptId))
    .orderBy(desc(schema.invites.createdAt), desc(schema.invites.id));
}

/**
 * The user's pending invites to live manuscripts, newest first; optionally to one manuscript.
 * Unclaimed e-mail invites to the user's verified address count too.
 */
export async function listPendingInvitesFor(
  db: Executor,
  user: Pick<UserRow, 'id' | 'email' | 'emailVerifiedAt'>,
  manuscriptId?: number,
): Promise<InviteRow[]> {
  const addressed = user.emailVerifiedAt
    ? or(
        eq(schema.invites.invitedUserId, user.id),
        and(
          eq(schema.invites.kind, 'email'),
          isNull(schema.invites.invitedUserId),
          eq(schema.invites.email, user.email.toLowerCase()),
        ),
      )
    : eq(schema.invites.invitedUserId, user.id);
  const rows = await db
    .select({ invite: schema.invites })
    .from(schema.invites)
    .innerJoin(schema.manuscripts, eq(schema.manuscripts.id, schema.invites.manuscriptId))
    .where(
      and(
        addressed,
        eq(schema.invites.status, 'pending'),
        inArray(schema.invites.kind, ['user', 'email']),
        isNull(schema.manuscripts.archivedAt),
        manuscriptId === undefined ? undefined : eq(schema.invites.manuscriptId, manuscriptId),
      ),
    )
    .orderBy(desc(schema.invites.createdAt), desc(schema.invites.id));
  return rows.map((row) => row.invite);
}

/** Manuscripts, authors and readers of several invites, in two queries. */
export async function loadInviteDetails(
  db: Executor,
  invites: InviteRow[],
): Promise<InviteDetails[]> {
  if (invites.length === 0) return [];
  const manuscriptIds = [...new Set(invites.map((invite) => invite.manuscriptId))];
  const manuscripts = await db
    .select()
    .from(schema.manuscripts)
    .where(inArray(schema.manuscripts.id, manuscriptIds));
  const userIds = new Set<number>(manuscripts.map((manuscript) => manuscript.userId));
  for (const invite of invites) if (invite.invitedUserId) userIds.add(invite.invitedUserId);
  const users = await db
    .select()
    .from(schema.users)
    .where(inArray(schema.users.id, [...userIds]));
  const manuscriptById = new Map(manuscripts.map((manuscript) => [manuscript.id, manuscript]));
  const userById = new Map(users.map((user) => [user.id, user]));
  return invites.map((invite) => {
    const manuscript = manuscriptById.get(invite.manuscriptId)!;
    return {
      invite,
      manuscript,
      author: userById.get(manuscript.userId)!,
      user: invite.invitedUserId ? (userById.get(invite.invitedUserId) ?? null) : null,
    };
  });
}
