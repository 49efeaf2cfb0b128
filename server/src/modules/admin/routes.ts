import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ADMIN_MESSAGES,
  adminBulkBody,
  adminBulkResponse,
  adminDashboardResponse,
  adminExportParams,
  adminFieldBody,
  adminItem,
  adminItemParams,
  adminItemResponse,
  adminLookupQuery,
  adminLookupResponse,
  adminMetaResponse,
  adminModelsResponse,
  adminSectionParams,
  adminViewParams,
  errorBody,
  listResponse,
  okBody,
} from '@margins/common';
import { forbidden, notFound } from '../../lib/http-errors.ts';
import { renderPage } from '../pages/render.ts';
import { dashboardMetrics } from './dashboard.ts';
import { exportFileName, exportStream, EXPORT_CONTENT_TYPES } from './export.ts';
import { listItems, parseAdminListQuery } from './list.ts';
import { lookupOptions, lookupTarget } from './lookup.ts';
import { allowAdminPageStyles } from './page-styles.ts';
import { adminActorOf, canSeeSection, canUseView, sectionHasView } from './policy.ts';
import { sectionNamed, sectionsFor } from './registry.ts';
import * as admin from './service.ts';
import type { AdminActor, AdminView, SectionDeclaration } from './types.ts';

const tags = ['admin'];
const security = [{ session: [] }];
const writeSecurity = [{ session: [], csrf: [] }];
const errors = { 400: errorBody, 403: errorBody, 404: errorBody };
const anyBody = z.record(z.string(), z.unknown());

/** The staff member asking (the onRequest hook has already turned everyone else away). */
function actorOf(request: FastifyRequest): AdminActor {
  const actor = adminActorOf(request.user);
  if (!actor) throw notFound();
  return actor;
}

/**
 * The section of the path for this view: 404 when there is no such section (or view of it),
 * 403 when the caller's role may not use it.
 */
function sectionFor(request: FastifyRequest, name: string, view: AdminView) {
  const actor = actorOf(request);
  const section = sectionNamed(name);
  if (!section) throw notFound();
  if (view === 'models' && !section.models) throw notFound();
  if (view === 'view' && !section.views?.length) throw notFound();
  if (!canSeeSection(actor.role, section) || !canUseView(actor.role, section, view)) {
    throw forbidden();
  }
  if (!sectionHasView(section, view)) throw forbidden(ADMIN_MESSAGES.readOnly);
  return { actor, section: section as SectionDeclaration };
}

/**
 * The admin area: its page and the generic /admin/api router that serves every view of the
 * contract (admin-contract.md) for every declared section (registry.ts).
 */
export async function adminRoutes(root: FastifyInstance): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = root;

  // Everyone who is not staff gets the app's own not-found answer from every /admin path,
  // page and API alike: nothing tells them the area exists.
  app.addHook('onRequest', async (request, reply) => {
    if (adminActorOf(request.user)) return;
    reply.callNotFound();
    return reply;
  });

  const page = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.startsWith('/admin/api/')) return reply.callNotFound();
    return renderPage(request, reply, 'admin', { styleNonce: allowAdminPageStyles(reply) });
  };
  app.get('/admin', { schema: { hide: true } }, page);
  app.get('/admin/*', { schema: { hide: true } }, page);

  app.get(
    '/admin/api/_meta',
    { schema: { tags, security, response: { 200: adminMetaResponse, 404: errorBody } } },
    async (request) => {
      const actor = actorOf(request);
      return { role: actor.role, sections: sectionsFor(actor.role) };
    },
  );

  app.get(
    '/admin/api/_dashboard',
    { schema: { tags, security, response: { 200: adminDashboardResponse, 404: errorBody } } },
    async (request) => {
      const actor = actorOf(request);
      const metrics = await dashboardMetrics(ctx.db);
      // Money is for admins only.
      return {
        metrics:
          actor.role === 'admin'
            ? metrics
            : metrics.filter((metric) => metric.name !== 'subscriptions'),
      };
    },
  );

  app.get(
    '/admin/api/:section',
    {
      schema: {
        tags,
        security,
        params: adminSectionParams,
        response: { 200: listResponse(adminItem), ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'list');
      const query = parseAdminListQuery(section, actor.role, request.query);
      return listItems(ctx.db, section, actor.role, query);
    },
  );

  app.get(
    '/admin/api/:section/lookup',
    {
      schema: {
        tags,
        security,
        params: adminSectionParams,
        querystring: adminLookupQuery,
        response: { 200: adminLookupResponse, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'lookup');
      const target = lookupTarget(section, actor.role, request.query.field, sectionNamed);
      return { options: await lookupOptions(ctx.db, target, actor.role, request.query.q) };
    },
  );

  app.get(
    '/admin/api/:section/models',
    {
      schema: {
        tags,
        security,
        params: adminSectionParams,
        response: { 200: adminModelsResponse, ...errors },
      },
    },
    async (request) => {
      const { section } = sectionFor(request, request.params.section, 'models');
      return { models: section.models ?? [] };
    },
  );

  // A section's own screens (the moderation report's queue): declared by the section, served here.
  app.get(
    '/admin/api/:section/views/:view',
    {
      schema: { tags, security, params: adminViewParams, response: { 200: anyBody, ...errors } },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'view');
      const view = section.views?.find((candidate) => candidate.name === request.params.view);
      if (!view) throw notFound();
      return view.response.parse(await view.run(ctx, actor, request.query));
    },
  );

  app.get(
    '/admin/api/:section/export/:type',
    { schema: { tags, security, params: adminExportParams } },
    async (request, reply) => {
      const { actor, section } = sectionFor(request, request.params.section, 'export');
      const query = parseAdminListQuery(section, actor.role, request.query);
      const type = request.params.type;
      return reply
        .header('content-disposition', `attachment; filename="${exportFileName(section, type)}"`)
        .header('cache-control', 'no-store')
        .type(EXPORT_CONTENT_TYPES[type])
        .send(exportStream(ctx.db, section, actor.role, query, type));
    },
  );

  app.get(
    '/admin/api/:section/:id',
    {
      schema: {
        tags,
        security,
        params: adminItemParams,
        response: { 200: adminItemResponse, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'details');
      return { item: await admin.itemDetails(ctx, section, actor, request.params.id) };
    },
  );

  app.post(
    '/admin/api/:section',
    {
      schema: {
        tags,
        security: writeSecurity,
        params: adminSectionParams,
        body: anyBody,
        response: { 201: adminItemResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { actor, section } = sectionFor(request, request.params.section, 'create');
      const item = await admin.createItem(ctx, section, actor, request.body);
      return reply.status(201).send({ item });
    },
  );

  app.put(
    '/admin/api/:section/:id',
    {
      schema: {
        tags,
        security: writeSecurity,
        params: adminItemParams,
        body: anyBody,
        response: { 200: adminItemResponse, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'update');
      const item = await admin.updateItem(ctx, section, actor, request.params.id, request.body);
      return { item };
    },
  );

  app.delete(
    '/admin/api/:section/:id',
    {
      schema: {
        tags,
        security: writeSecurity,
        params: adminItemParams,
        response: { 200: okBody, 409: errorBody, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'delete');
      await admin.deleteItem(ctx, section, actor, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/admin/api/:section/bulk',
    {
      schema: {
        tags,
        security: writeSecurity,
        params: adminSectionParams,
        body: adminBulkBody,
        response: { 200: adminBulkResponse, 409: errorBody, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'bulk');
      return { affected: await admin.runBulkAction(ctx, section, actor, request.body) };
    },
  );

  app.post(
    '/admin/api/:section/:id/field',
    {
      schema: {
        tags,
        security: writeSecurity,
        params: adminItemParams,
        body: adminFieldBody,
        response: { 200: adminItemResponse, ...errors },
      },
    },
    async (request) => {
      const { actor, section } = sectionFor(request, request.params.section, 'field');
      const { name, value } = request.body;
      const item = await admin.updateOneField(ctx, section, actor, request.params.id, name, value);
      return { item };
    },
  );
}
