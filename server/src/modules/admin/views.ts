import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { parseListQuery } from '../../lib/list-query.ts';
import type { AdminActor, CustomViewDeclaration } from './types.ts';

/**
 * Declares a section's own screen (types.ts CustomViewDeclaration): the query string is parsed
 * with `query` (400 with field errors, never 500) before `handler` sees it.
 */
export function defineView<Query extends z.ZodType>(view: {
  name: string;
  label: string;
  query: Query;
  response: z.ZodType<Record<string, unknown>>;
  handler: (ctx: AppContext, actor: AdminActor, query: z.output<Query>) => Promise<unknown>;
}): CustomViewDeclaration {
  return {
    name: view.name,
    label: view.label,
    response: view.response,
    run: (ctx, actor, rawQuery) => view.handler(ctx, actor, parseListQuery(view.query, rawQuery)),
  };
}
