import { and, asc, eq, ilike, isNotNull, ne, or, sql } from 'drizzle-orm';
import { MESSAGES, type ProfileBundle, type ProfileFormValues } from '@margins/common';
import type { AppContext, UserRow } from '../../context.ts';
import { schema, type Db } from '../../db/index.ts';
import { badRequest } from '../../lib/http-errors.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { listCatalogue, listInterests, listSelectedGenreIds } from '../genres/service.ts';
import { deleteOwnedMedia, storeMedia } from '../media/service.ts';
import { presentCurrentUser } from '../users/presenter.ts';
import type { PictureUpload } from './form.ts';
import { invitesRemaining, listInviteCodes } from './invite-codes.ts';
import { getNotificationPreferences } from './notification-preferences.ts';
import { can } from './policy.ts';
import { presentInviteCode } from './presenter.ts';

export { wantsNotification } from './notification-preferences.ts';

const LOOKUP_LIMIT = 10;
export const CERTIFY_FIRST_MESSAGE = 'Confirm that you are 18 or over first.';

/** Everything the current-profile page shows, for the given user. */
export async function loadProfileBundle(ctx: AppContext, user: UserRow): Promise<ProfileBundle> {
  const [categories, selectedGenreIds, preferences, inviteCodes] = await Promise.all([
    listCatalogue(ctx.db),
    listSelectedGenreIds(ctx.db, user.id),
    getNotificationPreferences(ctx.db, user.id),
    listInviteCodes(ctx.db, user.id),
  ]);
  return {
    user: presentCurrentUser(user),
    categories,
    selected_genre_ids: selectedGenreIds,
    notification_preferences: preferences,
    invite_codes: inviteCodes.map(presentInviteCode),
    invites_remaining: invitesRemaining(ctx, inviteCodes.length),
  };
}

/**
 * Saves the profile form and, when given, the new picture (the old one is deleted), in one
 * transaction. A handle someone else has (in any letter case) is a field error.
 */
export async function updateProfile(
  ctx: AppContext,
  user: UserRow,
  values: ProfileFormValues,
  picture: PictureUpload | null,
): Promise<UserRow> {
  const { handle, display_name, remove_picture, ...optional } = values;
  try {
    return await ctx.db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: schema.users.id })
        .from(schema.users)
        .where(
          and(sql`lower(${schema.users.handle}) = lower(${handle})`, ne(schema.users.id, user.id)),
        );
      if (taken) throw badRequest({ handle: [MESSAGES.handleTaken] });
      const [current] = await tx
        .select({ pictureMediaId: schema.users.pictureMediaId })
        .from(schema.users)
        .where(eq(schema.users.id, user.id))
        .for('update');
      const oldPictureId = current?.pictureMediaId ?? null;
      let pictureMediaId = oldPictureId;
      if (picture)
        pictureMediaId = await storeMedia(tx, user.id, picture.contentType, picture.data);
      else if (remove_picture) pictureMediaId = null;
      const [updated] = await tx
        .update(schema.users)
        // Optional fields that were left out are undefined, which drizzle leaves unchanged.
        .set({
          ...optional,
          handle,
          displayName: display_name,
          pictureMediaId,
          updatedAt: new Date(),
        })
        .where(eq(schema.users.id, user.id))
        .returning();
      if (oldPictureId && oldPictureId !== pictureMediaId) {
        await deleteOwnedMedia(tx, user.id, oldPictureId);
      }
      return updated!;
    });
  } catch (error) {
    // Two people saving the same new handle at once: the unique index decides.
    if (isUniqueViolation(error)) throw badRequest({ handle: [MESSAGES.handleTaken] });
    throw error;
  }
}

/** Records that the user certified being 18 or over (the first time counts). */
export async function certifyAdult(db: Db, user: UserRow): Promise<void> {
  await db
    .update(schema.users)
    .set({ certified18At: sql`coalesce(${schema.users.certified18At}, now())` })
    .where(eq(schema.users.id, user.id));
}

/** Sets the mature-content preference; turning it on needs the 18+ certification first. */
export async function setShowMature(db: Db, user: UserRow, showMature: boolean): Promise<boolean> {
  if (showMature && !user.certified18At) {
    throw badRequest({ show_mature: [CERTIFY_FIRST_MESSAGE] });
  }
  await db
    .update(schema.users)
    .set({ showMature, updatedAt: new Date() })
    .where(eq(schema.users.id, user.id));
  return showMature;
}

/** Escapes LIKE wildcards, so "a_b" matches only "a_b…". */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/**
 * Users whose handle or display name starts with q (any letter case): finished sign-ups
 * only, never the caller. Matches on nothing else: never on an e-mail address.
 */
export async function lookupUsers(db: Db, caller: UserRow, q: string) {
  const prefix = `${escapeLike(q)}%`;
  return db
    .select({
      id: schema.users.id,
      handle: schema.users.handle,
      displayName: schema.users.displayName,
    })
    .from(schema.users)
    .where(
      and(
        isNotNull(schema.users.signupCompletedAt),
        ne(schema.users.id, caller.id),
        or(ilike(schema.users.handle, prefix), ilike(schema.users.displayName, prefix)),
      ),
    )
    .orderBy(
      sql`lower(${schema.users.handle}) = lower(${q}) desc`,
      sql`lower(${schema.users.displayName})`,
      asc(schema.users.id),
    )
    .limit(LOOKUP_LIMIT);
}

/** A user as the public may see them, or null when no such profile exists publicly. */
export async function findPublicUser(db: Db, userId: number): Promise<UserRow | null> {
  const [user] = await db.select().from(schema.users).where(eq(schema.users.id, userId));
  return user && can(null, 'view', user) ? user : null;
}

/** A public profile (the user and their interests), or null when it does not exist publicly. */
export async function findPublicProfile(db: Db, userId: number) {
  const user = await findPublicUser(db, userId);
  if (!user) return null;
  return { user, interests: await listInterests(db, userId) };
}
