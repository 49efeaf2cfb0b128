import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBody, PICTURE_TYPES } from '@margins/common';
import { contentDisposition } from '../../lib/file-names.ts';
import { authorize } from '../../lib/http-errors.ts';
import type { AppContext, UserRow } from '../../context.ts';
import { canViewManuscriptMedia } from '../manuscripts/media-access.ts';
import { canViewMedia } from './policy.ts';
import { findMedia, originalFileName, type StoredMedia } from './service.ts';

const tags = ['media'];
const mediaParams = z.object({
  /** The id in a picture URL (/media/{media_id}). */
  media_id: z.string().min(1).max(128),
});
/** A raw file answer (sent as is, never serialized), documented as binary. */
const fileBytes = z
  .custom<Buffer>((value) => Buffer.isBuffer(value))
  .meta({
    description: 'The file, with its stored content type.',
    type: 'string',
    format: 'binary',
  });
const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/** Stored files (profile pictures): the bytes with their stored type. */
export async function mediaRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  app.get(
    '/media/:media_id',
    {
      schema: {
        tags,
        params: mediaParams,
        response: {
          200: {
            description: 'The file, with its stored content type.',
            content: Object.fromEntries(PICTURE_TYPES.map((type) => [type, { schema: fileBytes }])),
          },
          404: errorBody,
        },
      },
    },
    async (request, reply) => {
      const media = await findMedia(ctx.db, request.params.media_id);
      authorize(media !== null && (await mayView(ctx, request.user, media)), true);
      // A manuscript's files follow its reading policy, which can change: never in shared caches.
      const ofManuscript = media.manuscriptId !== null;
      // Ids are never reused: a new picture gets a new id, so the bytes never change.
      return reply
        .header('content-type', media.contentType)
        .header('content-disposition', await dispositionOf(ctx, media))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header(
          'cache-control',
          ofManuscript ? 'private, max-age=3600' : `public, max-age=${ONE_YEAR_SECONDS}, immutable`,
        )
        .send(media.data);
    },
  );
}

/** Pictures show inline; an uploaded original downloads under its (cleaned, encoded) name. */
async function dispositionOf(ctx: AppContext, media: StoredMedia): Promise<string> {
  if (media.contentType.startsWith('image/')) return 'inline';
  const fileName = await originalFileName(ctx.db, media.id);
  return fileName ? contentDisposition('attachment', fileName) : 'attachment';
}

/** Profile pictures by the media policy; a manuscript's files by the manuscript's policy. */
async function mayView(ctx: AppContext, viewer: UserRow | null, media: StoredMedia) {
  if (media.manuscriptId === null) return canViewMedia(viewer, media);
  return canViewManuscriptMedia(ctx, viewer, {
    manuscriptId: media.manuscriptId,
    contentType: media.contentType,
  });
}
