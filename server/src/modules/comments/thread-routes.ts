import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commentIdParams,
  errorBody,
  manuscriptIdParams,
  reactionParams,
  reactionSet,
  replyBody,
  replyDeleteResponse,
  replyIdParams,
  replyResponse,
  resolveResponse,
  threadsResponse,
} from '@margins/common';
import { requireUser } from '../../plugins/session.ts';
import { presentComment } from './presenter.ts';
import { setReaction } from './reaction-service.ts';
import { createReply, deleteReply, updateReply } from './reply-service.ts';
import { setResolved } from './resolve-service.ts';
import { loadScope } from './scope.ts';
import { listThreads } from './thread-list.ts';
import { presentReplyOutcome } from './thread-presenter.ts';
import { countCommentWrite } from './write-limit.ts';

const tags = ['comments'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/** Replies, resolving and reactions (issue 16); writes also reach the room. */
export async function threadRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;
  // Replies, resolutions and reactions count against the same per-user write limit.
  app.addHook('preHandler', async (request) => {
    if (request.method !== 'GET' && request.user) await countCommentWrite(ctx, request.user.id);
  });

  app.get(
    '/comments/manuscript/:manuscript_id/threads',
    {
      schema: {
        tags,
        description:
          'Every reply and reaction on the manuscript this viewer may see (private comments: a ' +
          'reply reaches only the writer of the comment it answers, its own writer and the owner).',
        params: manuscriptIdParams,
        response: { 200: threadsResponse, ...errors },
      },
    },
    async (request) => {
      const scope = await loadScope(ctx, request.user, request.params.manuscript_id);
      return listThreads(ctx.db, scope);
    },
  );

  app.post(
    '/comments/:comment_id/replies',
    {
      schema: {
        tags,
        description: 'Replies to a comment (one level deep): anyone who may see its text.',
        params: commentIdParams,
        body: replyBody,
        response: { 200: replyResponse, ...errors },
      },
    },
    async (request) => {
      const outcome = await createReply(
        ctx,
        requireUser(request),
        request.params.comment_id,
        request.body.comment,
      );
      return { reply: presentReplyOutcome(outcome) };
    },
  );

  app.put(
    '/comments/replies/:reply_id',
    {
      schema: {
        tags,
        description: 'Edits your own reply.',
        params: replyIdParams,
        body: replyBody,
        response: { 200: replyResponse, ...errors },
      },
    },
    async (request) => {
      const outcome = await updateReply(
        ctx,
        requireUser(request),
        request.params.reply_id,
        request.body.comment,
      );
      return { reply: presentReplyOutcome(outcome) };
    },
  );

  app.delete(
    '/comments/replies/:reply_id',
    {
      schema: {
        tags,
        description: 'Deletes your reply, or any reply on your manuscript.',
        params: replyIdParams,
        response: { 200: replyDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const deleted = await deleteReply(ctx, requireUser(request), request.params.reply_id);
      return { ok: true as const, id: deleted.id, comment_id: deleted.commentId };
    },
  );

  for (const [method, resolved] of [
    ['POST', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/comments/:comment_id/resolve',
      schema: {
        tags,
        description: resolved
          ? 'Resolves a comment’s thread (the manuscript’s owner only; again: no change).'
          : 'Reopens a resolved thread (the manuscript’s owner only).',
        params: commentIdParams,
        response: { 200: resolveResponse, ...errors },
      },
      handler: async (request) => {
        const outcome = await setResolved(
          ctx,
          requireUser(request),
          request.params.comment_id,
          resolved,
        );
        return {
          comment: presentComment(
            outcome.comment,
            outcome.author,
            outcome.scope.viewer,
            outcome.scope.manuscript,
            outcome.myVote,
          ),
        };
      },
    });
  }

  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/comments/:comment_id/reactions/:reaction',
      schema: {
        tags,
        description: on
          ? 'Adds your reaction to a comment or reply (idempotent: twice is once).'
          : 'Removes your reaction (idempotent).',
        params: reactionParams,
        response: { 200: reactionSet, ...errors },
      },
      handler: async (request) =>
        setReaction(
          ctx,
          requireUser(request),
          request.params.comment_id,
          request.params.reaction,
          on,
        ),
    });
  }
}
