import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '@margins/common';
import { HttpError, type FieldErrors } from '../lib/http-errors.ts';
import { renderPage, wantsJson } from '../modules/pages/render.ts';

/** One error shape for every failure: {error, errors?}; never a stack trace. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply
        .status(error.status)
        .send(
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
      return reply.status(400).send({ error: MESSAGES.checkFormFields, errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error(error);
      return reply.status(500).send({ error: MESSAGES.serverError });
    }
    if (status === 429) return reply.status(429).send({ error: MESSAGES.tooManyRequests });
    if (status === 413) {
      return reply.status(413).send({ error: 'That file is too large.' });
    }
    return reply.status(status).send({ error: error.message || 'Bad request.' });
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
