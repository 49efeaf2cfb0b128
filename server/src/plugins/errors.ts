import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { INPUT_MESSAGES, MESSAGES, type ErrorBody } from '@margins/common';
import { HttpError, type FieldErrors } from '../lib/http-errors.ts';
import { renderPage, wantsJson } from '../modules/pages/render.ts';

/**
 * Sends an error body as plain JSON: never through the route's response schema, whose 4xx
 * shape may be richer (the profile form's `form`) and would turn the answer into a 500.
 */
function sendError(reply: FastifyReply, status: number, body: ErrorBody) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(body);
}

/**
 * Errors Fastify meets before any route runs (a path that is not valid UTF-8 once decoded, a
 * path parameter over its length limit): the one error shape, not Fastify's own.
 */
export function handleFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error.statusCode !== undefined && error.statusCode < 500) {
    return sendError(reply, error.statusCode, { error: INPUT_MESSAGES.badAddress });
  }
  return sendError(reply, 500, { error: MESSAGES.serverError });
}

/** One error shape for every failure: {error, errors?}; never a stack trace. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return sendError(
        reply,
        error.status,
        error.errors ? { error: error.message, errors: error.errors } : { error: error.message },
      );
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const path = (issue.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.') || '_';
        const field = path.split('.')[0] || '_';
        (errors[field] ??= []).push(issue.message ?? 'Invalid value.');
      }
      return sendError(reply, 400, { error: MESSAGES.checkFormFields, errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(error);
      return sendError(reply, 500, { error: MESSAGES.serverError });
    }
    if (status === 429) return sendError(reply, 429, { error: MESSAGES.tooManyRequests });
    if (status === 413) return sendError(reply, 413, { error: 'That file is too large.' });
    return sendError(reply, status, { error: error.message || 'Bad request.' });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && !wantsJson(request) && acceptsHtml(request.headers.accept)) {
      return renderPage(request, reply, 'not-found', {}, 404);
    }
    return reply.status(404).send({ error: MESSAGES.notFound });
  });
}

function acceptsHtml(accept: string | undefined): boolean {
  return !!accept && (accept.includes('text/html') || accept.includes('*/*'));
}
