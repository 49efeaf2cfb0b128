import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { PICTURE_MAX_BYTES, PICTURE_TYPES } from '@margins/common';
import { sniffImageType } from '../../conversion/images.ts';
import { schema, type Db, type Executor } from '../../db/index.ts';

export type PictureType = (typeof PICTURE_TYPES)[number];

/** A stored file as the media route needs it. */
export interface StoredMedia {
  id: string;
  contentType: string;
  data: Buffer;
  /** True while the file is its owner's current profile picture. */
  isProfilePicture: boolean;
  /** Set for a manuscript's images and uploaded originals (read as the manuscript allows). */
  manuscriptId: number | null;
}

export const PICTURE_TYPE_MESSAGE = 'Use a PNG, JPEG, WebP or GIF image.';
export const PICTURE_SIZE_MESSAGE = `Use an image of at most ${PICTURE_MAX_BYTES / (1024 * 1024)} MB.`;

/** A new media id: random and URL-safe (ids are never reused, so files cache forever). */
export const newMediaId = () => randomBytes(16).toString('base64url');

/**
 * The type of a profile picture judged by its first bytes (never by its name or declared
 * type), or null when it is not a PNG, JPEG, WebP or GIF image.
 */
export function sniffPictureType(bytes: Uint8Array): PictureType | null {
  const sniffed = sniffImageType(bytes);
  if (
    sniffed === 'image/webp' &&
    Buffer.from(bytes.subarray(8, 12)).toString('latin1') !== 'WEBP'
  ) {
    return null;
  }
  return (PICTURE_TYPES as readonly string[]).includes(sniffed ?? '')
    ? (sniffed as PictureType)
    : null;
}

/** Checks an uploaded picture; returns its type or the message for the `picture` field. */
export function checkPicture(
  bytes: Uint8Array,
  truncated: boolean,
): { contentType: PictureType } | { error: string } {
  if (truncated || bytes.byteLength > PICTURE_MAX_BYTES) return { error: PICTURE_SIZE_MESSAGE };
  const contentType = sniffPictureType(bytes);
  return contentType ? { contentType } : { error: PICTURE_TYPE_MESSAGE };
}

/** Stores a file owned by a user; returns its new id. */
export async function storeMedia(
  executor: Executor,
  ownerId: number,
  contentType: string,
  data: Buffer,
): Promise<string> {
  const id = newMediaId();
  await executor
    .insert(schema.media)
    .values({ id, ownerId, contentType, byteSize: data.byteLength, data });
  return id;
}

/** Deletes a file, only if the given user owns it. */
export async function deleteOwnedMedia(executor: Executor, ownerId: number, id: string) {
  await executor
    .delete(schema.media)
    .where(and(eq(schema.media.id, id), eq(schema.media.ownerId, ownerId)));
}

/** A stored file with what its policy needs to know, or null. */
export async function findMedia(db: Db, id: string): Promise<StoredMedia | null> {
  const [row] = await db
    .select({
      id: schema.media.id,
      contentType: schema.media.contentType,
      data: schema.media.data,
      manuscriptId: schema.media.manuscriptId,
      isProfilePicture: sql<boolean>`coalesce(${schema.users.pictureMediaId} = ${schema.media.id}, false)`,
    })
    .from(schema.media)
    .leftJoin(schema.users, eq(schema.users.id, schema.media.ownerId))
    .where(eq(schema.media.id, id));
  return row ?? null;
}

/** The name an uploaded original was sent under (its first conversion's), or null. */
export async function originalFileName(db: Db, mediaId: string): Promise<string | null> {
  const [row] = await db
    .select({ fileName: schema.documentConversions.fileName })
    .from(schema.documentConversions)
    .where(eq(schema.documentConversions.originalMediaId, mediaId))
    .limit(1);
  return row?.fileName ?? null;
}
