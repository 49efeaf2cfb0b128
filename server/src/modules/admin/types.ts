import type { AnyColumn, SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { AdminFieldType, AdminRole, ListOrder } from '@margins/common';
import type { AppContext, EventTx } from '../../context.ts';
import type { FieldErrors } from '../../lib/http-errors.ts';

/** Who is acting in the admin area. */
export interface AdminActor {
  id: number;
  role: AdminRole;
}

/** The views of the contract, each authorised on its own (policy.ts). */
export const ADMIN_VIEWS = [
  'list',
  'details',
  'create',
  'update',
  'delete',
  'bulk',
  'export',
  'lookup',
  'field',
  'models',
  'view',
] as const;
export type AdminView = (typeof ADMIN_VIEWS)[number];

/** One presented field: where it is read from, and what each view may do with it. */
export interface FieldDeclaration {
  /** The item's key on the wire (snake_case). */
  name: string;
  label: string;
  type: AdminFieldType;
  /**
   * Where it is read from: a column of the section's table (then create/edit may write it) or
   * an SQL expression over that table's row (read only).
   */
  source: AnyColumn | SQL;
  choices?: readonly string[];
  /** The section whose lookup names the referenced item (type 'reference'). */
  reference?: string;
  list?: boolean;
  sortable?: boolean;
  /** `?<name>=<value>` filters by equality (or by `filter`, when given). */
  filterable?: boolean;
  /** A filter of its own: the value's schema and its condition. */
  filter?: { schema: z.ZodType; condition: (value: never) => SQL | undefined };
  /** `q` is looked for in it (case-insensitive substring, as plain text). */
  searchable?: boolean;
  create?: boolean;
  edit?: boolean;
  /** The one-field ajax update may set it (must also be editable). */
  inline?: boolean;
  required?: boolean;
  /** Roles that never see it (an e-mail address for moderators). */
  hiddenFrom?: readonly AdminRole[];
  /** Left out of exports (default: exported). */
  exported?: boolean;
}

/** A bulk action: runs in the request's transaction; its answer is the rows it changed. */
export interface BulkActionDeclaration {
  name: string;
  label: string;
  /** The question asked before it runs; null for none. */
  confirm: string | null;
  /** Roles that may run it (default: admin only). */
  roles?: readonly AdminRole[];
  /** The action needs `input.reason`. */
  needsReason?: boolean;
  handler: (
    ctx: AppContext,
    tx: EventTx,
    ids: number[],
    input: { reason?: string | undefined },
    actor: AdminActor,
  ) => Promise<number>;
}

/**
 * A read-only screen of its own that a section declares beside the nine views (the moderation
 * report's queue): GET /admin/api/<section>/views/<name>. Made with defineView (sections/views.ts),
 * which parses the query string before the handler sees it.
 */
export interface CustomViewDeclaration {
  name: string;
  label: string;
  /** The answer's shape (the wire contract in common/). */
  response: z.ZodType<Record<string, unknown>>;
  /** Parses the raw query string (400 with field errors) and answers. */
  run: (ctx: AppContext, actor: AdminActor, rawQuery: unknown) => Promise<unknown>;
}

/** What a create, update or delete hook gets besides its input. */
export interface WriteContext {
  ctx: AppContext;
  /** The request's transaction: a module's command joins it (its events commit with the audit row). */
  tx: EventTx;
  actor: AdminActor;
}

/**
 * One admin section, declared: the router serves every view of the contract from this alone
 * (sections/*.ts; adding a section is one file there plus its line in sections/index.ts).
 */
export interface SectionDeclaration {
  /** The URL name: /admin/api/<name>. */
  name: string;
  label: string;
  table: PgTable;
  /** The integer primary key. */
  id: AnyPgColumn;
  /** The field that names an item in titles and lookups. */
  labelField: string;
  fields: FieldDeclaration[];
  /** Conditions every list, export and lookup of the section adds (e.g. live rows only). */
  scope?: SQL;
  defaultSort: string;
  defaultOrder: ListOrder;
  /** Validates a create body (keys: field names); absent: no create view. */
  createSchema?: z.ZodObject;
  /** Validates an update body, every key optional; absent: no edit view. */
  updateSchema?: z.ZodObject;
  /** Deletes one row (default: DELETE by id); absent with `deletable: false`: no delete. */
  deletable?: boolean;
  /** Rules that need the database (the last admin): field errors, or nothing. */
  checkWrite?: (
    write: WriteContext,
    change: {
      id: number | null;
      before: Record<string, unknown> | null;
      input: Record<string, unknown>;
    },
  ) => Promise<FieldErrors | undefined>;
  /**
   * Replaces the default UPDATE: the module's command makes the change (with its events), as
   * it does for the module's own routes; a domain table has one writer (issue 34).
   */
  update?: (write: WriteContext, id: number, input: Record<string, unknown>) => Promise<void>;
  /** Runs after an update, in its transaction (what the change means beyond its row). */
  afterUpdate?: (
    write: WriteContext,
    before: Record<string, unknown> & { id: number },
    after: Record<string, unknown> & { id: number },
  ) => Promise<void>;
  /** Replaces the default DELETE (e.g. the module's archive command instead). */
  remove?: (write: WriteContext, id: number) => Promise<void>;
  /** Column values a new row needs beyond its fields (e.g. a password hash). */
  createValues?: (input: Record<string, unknown>) => Promise<Record<string, unknown>>;
  bulkActions?: BulkActionDeclaration[];
  /** Which views a moderator may use (an admin may use all). */
  moderatorViews?: readonly AdminView[];
  /** Screens of its own beyond the nine views (served under /views/<name>). */
  views?: CustomViewDeclaration[];
  /** The moderation report's models lookup. */
  models?: Array<{ name: string; label: string }>;
}
