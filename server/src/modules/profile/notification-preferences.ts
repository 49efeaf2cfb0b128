import { eq, sql } from 'drizzle-orm';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KEYS,
  type NotificationKey,
  type NotificationPreferences,
  type NotificationPreferencesBody,
} from '@margins/common';
import { schema, type Executor } from '../../db/index.ts';

type Channel = (typeof NOTIFICATION_CHANNELS)[number];

/** Every key on e-mail: what a user without a stored row (or key) gets. */
const DEFAULT_CHANNELS: Channel[] = ['email'];

const isChannel = (value: string): value is Channel =>
  (NOTIFICATION_CHANNELS as readonly string[]).includes(value);

/** The full preference map: stored keys as stored, missing keys on the default. */
function withDefaults(stored: Record<string, string[]> | null): NotificationPreferences {
  return Object.fromEntries(
    NOTIFICATION_KEYS.map((key) => {
      const channels = stored?.[key];
      return [key, Array.isArray(channels) ? channels.filter(isChannel) : [...DEFAULT_CHANNELS]];
    }),
  ) as NotificationPreferences;
}

async function readStored(db: Executor, userId: number) {
  const [row] = await db
    .select({ preferences: schema.notificationPreferences.preferences })
    .from(schema.notificationPreferences)
    .where(eq(schema.notificationPreferences.userId, userId));
  return row?.preferences ?? null;
}

/** A user's notification preferences, defaults filled in. */
export async function getNotificationPreferences(
  db: Executor,
  userId: number,
): Promise<NotificationPreferences> {
  return withDefaults(await readStored(db, userId));
}

/** Saves the given keys (others keep their value) in one statement; returns the full map. */
export async function updateNotificationPreferences(
  db: Executor,
  userId: number,
  changes: NotificationPreferencesBody,
): Promise<NotificationPreferences> {
  const cleaned = Object.fromEntries(
    Object.entries(changes)
      .filter((entry): entry is [string, Channel[]] => entry[1] !== undefined)
      .map(([key, channels]) => [key, [...new Set(channels)]]),
  );
  const table = schema.notificationPreferences;
  const [row] = await db
    .insert(table)
    .values({ userId, preferences: cleaned })
    .onConflictDoUpdate({
      target: table.userId,
      set: {
        preferences: sql`${table.preferences} || excluded.preferences`,
        updatedAt: new Date(),
      },
    })
    .returning({ preferences: table.preferences });
  return withDefaults(row?.preferences ?? null);
}

/** True when the user wants mails of this kind (the default when nothing is stored). */
export async function wantsNotification(
  db: Executor,
  userId: number,
  key: NotificationKey,
): Promise<boolean> {
  return withDefaults(await readStored(db, userId))[key].includes('email');
}
