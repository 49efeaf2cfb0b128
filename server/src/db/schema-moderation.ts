import { boolean, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { manuscripts } from './schema-manuscripts.ts';
import { reports } from './schema-comments.ts';
import { users } from './schema-accounts.ts';

/**
 * Features as runtime switches (modules/features): productsEnabled, invitesEnabled and the
 * maintenance notice. Seeded from the environment's defaults on first start; after that the
 * row wins, so an admin's change survives a restart and reaches every process.
 */
export const features = pgTable('features', {
  /** The admin registry's integer key; `name` is what the code reads. */
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  enabled: boolean('enabled').notNull(),
  /** The text shown on every page while the maintenance switch is on. */
  notice: text('notice'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A staff member opened a manuscript they could not otherwise read, while a report on it was
 * open (modules/access staff reading rule). The author is shown each one.
 */
export const staffOpenings = pgTable(
  'staff_openings',
  {
    id: serial('id').primaryKey(),
    manuscriptId: integer('manuscript_id')
      .notNull()
      .references(() => manuscripts.id, { onDelete: 'cascade' }),
    staffId: integer('staff_id').references(() => users.id, { onDelete: 'set null' }),
    /** The open report that allowed it (null if it was since deleted). */
    reportId: integer('report_id').references(() => reports.id, { onDelete: 'set null' }),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('staff_openings_manuscript_idx').on(table.manuscriptId, table.openedAt)],
);
