import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  commentDeleteResponse,
  commentIdParams,
  commentListQuery,
  commentListResponse,
  commentRankResponse,
  commentSaveResponse,
  createCommentBody,
  errorBody,
  manuscriptIdParams,
  MESSAGES,
  rankParams,
  reportBody,
  reportReasonsResponse,
  reportResponse,
  selectionCommentsResponse,
  selectionIdParams,
  updateCommentBody,
  type CommentSaveResponse,
} from '@margins/common';
import { notFound } from '../../lib/http-errors.ts';
import { feedSince } from '../../lib/list-query.ts';
import { requireUser } from '../../plugins/session.ts';
import {
  createComment,
  deleteComment,
  updateComment,
  type SaveOutcome,
} from './comment-service.ts';
import { presentComment, presentHighlight } from './presenter.ts';
import { sendCommentList } from './list-wire.ts';
import { findHighlight, listSelectionComments } from './queries.ts';
import { listReportReasons, submitReport } from './report-service.ts';
import { loadScope } from './scope.ts';
import { rankComment } from './vote-service.ts';
import { countCommentWrite } from './write-limit.ts';

const tags = ['comments'];
const errors = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody } as const;

/** A save's answer, presented for the one who saved. */
function presentSave(outcome: SaveOutcome): CommentSaveResponse {
  const { scope, comment, author, highlight, deleted } = outcome;
  return {
    comment:
      comment && author
        ? presentComment(comment, author, scope.viewer, scope.manuscript, outcome.myVote)
        : null,
    highlight: highlight ? presentHighlight(highlight, scope.viewer, scope.manuscript) : null,
    deleted: deleted !== null,
    highlight_removed: deleted?.highlightRemoved ?? false,
  };
}

/** Highlights, margin comments, votes (API.md) and reports; writes also reach the room. */
export async function commentRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;
  // Every write here (comments, votes, reports) counts against the user's write limit.
  // Not async: a read (the list, often a cached answer) passes in the same turn.
  app.addHook('preHandler', (request, _reply, done) => {
    if (request.method === 'GET' || !request.user) return done();
    countCommentWrite(ctx, request.user.id).then(() => done(), done);
  });

  app.get(
    '/comments/manuscript/:manuscript_id',
    {
      schema: {
        tags,
        description:
          'The comments and highlights of a manuscript (document order, then rank), as this ' +
          'viewer may see them: a feed (the cursor form of the list contract). With `since` ' +
          '(an earlier `cursor`): only what changed, and tombstones of what was deleted.',
        params: manuscriptIdParams,
        querystring: commentListQuery,
        response: { 200: commentListResponse, ...errors },
      },
    },
    async (request, reply) =>
      sendCommentList(ctx, request, reply, request.params.manuscript_id, feedSince(request.query)),
  );

  app.get(
    '/comments/selection/:selection_id',
    {
      schema: {
        tags,
        description: 'One highlight and its comments.',
        params: selectionIdParams,
        response: { 200: selectionCommentsResponse, ...errors },
      },
    },
    async (request) => {
      const highlight = await findHighlight(ctx.db, request.params.selection_id);
      if (!highlight || highlight.deletedAt !== null) throw notFound();
      const scope = await loadScope(ctx, request.user, highlight.manuscriptId);
      return listSelectionComments(ctx.db, scope, highlight);
    },
  );

  app.post(
    '/comments/manuscript/:manuscript_id',
    {
      schema: {
        tags,
        description:
          'A comment on a highlight; the highlight is created when its selection_id is new (send ' +
          'its range then). A blank comment creates nothing and removes your unused highlight.',
        params: manuscriptIdParams,
        body: createCommentBody,
        response: { 200: commentSaveResponse, ...errors, 409: errorBody },
      },
    },
    async (request) => {
      const scope = await loadScope(ctx, requireUser(request), request.params.manuscript_id);
      return presentSave(await createComment(ctx, scope, request.body));
    },
  );

  app.put(
    '/comments/:comment_id',
    {
      schema: {
        tags,
        description: 'Edits your own comment; blank text deletes it.',
        params: commentIdParams,
        body: updateCommentBody,
        response: { 200: commentSaveResponse, ...errors },
      },
    },
    async (request) => {
      const user = requireUser(request);
      return presentSave(
        await updateComment(ctx, user, request.params.comment_id, request.body.comment),
      );
    },
  );

  app.delete(
    '/comments/:comment_id',
    {
      schema: {
        tags,
        description: 'Deletes your comment, or any comment on your manuscript.',
        params: commentIdParams,
        response: { 200: commentDeleteResponse, ...errors },
      },
    },
    async (request) => {
      const deleted = await deleteComment(ctx, requireUser(request), request.params.comment_id);
      return {
        ok: true as const,
        id: deleted.id,
        selection_id: deleted.selectionId,
        highlight_removed: deleted.highlightRemoved,
      };
    },
  );

  app.post(
    '/comments/:comment_id/rank/:dir',
    {
      schema: {
        tags,
        description:
          'Votes a comment up or down: one vote per user, changeable; the same way again keeps it.',
        params: rankParams,
        response: { 200: commentRankResponse, ...errors },
      },
    },
    async (request) => {
      const { scope, comment, author, myVote } = await rankComment(
        ctx,
        requireUser(request),
        request.params.comment_id,
        request.params.dir,
      );
      return { comment: presentComment(comment, author, scope.viewer, scope.manuscript, myVote) };
    },
  );

  app.get(
    '/report/reasons',
    {
      schema: {
        tags: ['reports'],
        description: 'The reasons the report modal offers.',
        response: { 200: reportReasonsResponse },
      },
    },
    async () => ({ reasons: await listReportReasons(ctx.db) }),
  );

  for (const url of ['/report/', '/report']) {
    app.post(
      url,
      {
        // Our own check answers 400 "Please check your fields" (SPEC §8), not the generic one.
        attachValidation: true,
        schema: {
          tags: ['reports'],
          hide: url === '/report',
          description:
            'Reports a comment or a manuscript for moderators. 400 {error: "Please check your ' +
            'fields", errors} on bad fields, an unknown reason, or your own comment.',
          body: reportBody,
          response: { 200: reportResponse, 400: errorBody, 401: errorBody },
        },
      },
      async (request) => {
        await submitReport(ctx, requireUser(request), request.body);
        return { ok: true as const, message: MESSAGES.reportSubmitted };
      },
    );
  }
}
