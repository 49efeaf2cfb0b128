import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './schema-accounts.ts';

/**
 * Every write made by an administrator or a moderator (issue 14 item 6): who, in which role,
 * where, what, on which ids, and the fields before and after. Written in the transaction of
 * the change (server/src/modules/admin/audit.ts recordAudit); never updated or deleted.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    /** Kept when the account is deleted: the role and the ids still tell what happened. */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorRole: text('actor_role', { enum: ['admin', 'moderator'] }).notNull(),
    /** The admin section (or the module, for writes outside the admin area). */
    section: text('section').notNull(),
    /** create, update, delete, field, or the bulk action's name. */
    action: text('action').notNull(),
    /** Every id the change touched (a bulk action is one row with all of them). */
    entityIds: integer('entity_ids').array().notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('audit_log_created_idx').on(table.createdAt),
    index('audit_log_section_idx').on(table.section, table.createdAt),
  ],
);

/**
 * Secrets every process on this database shares (launch/server-secrets.ts): outside production,
 * where SESSION_SECRET may be unset, the session secret is generated once here, so a cookie
 * issued by any process is good on every other.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
