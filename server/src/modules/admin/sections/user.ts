import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ADMIN_MESSAGES } from '@margins/common';
import { schema } from '../../../db/index.ts';
import { badRequest } from '../../../lib/http-errors.ts';
import { hashPassword } from '../../auth/service.ts';
import type { SectionDeclaration, WriteContext } from '../types.ts';
import { email, handle, optionalLine, optionalText, qualified, requiredLine } from './fields.ts';
import { moderationUserActions } from './moderation-actions.ts';

const users = schema.users;
const ROLES = ['user', 'moderator', 'admin'] as const;

/** The admins, locked until the transaction ends: two demotions at once cannot both pass. */
async function lockedAdminIds({ tx }: WriteContext): Promise<number[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.role, 'admin'))
    .for('update');
  return rows.map((row) => row.id);
}

const userFields = {
  email,
  display_name: requiredLine('a display name', 80),
  handle: handle.nullable().optional(),
  role: z.enum(ROLES, { error: 'Choose user, moderator or admin.' }),
  about: optionalText(2000, true),
  pronouns: optionalLine(40),
  website: optionalLine(200),
};

/** Accounts: find, edit, promote and demote (admins only), suspend (moderators too). */
export const userSection: SectionDeclaration = {
  name: 'user',
  label: 'Users',
  table: users,
  id: users.id,
  labelField: 'display_name',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'display_name',
      label: 'Name',
      type: 'text',
      source: users.displayName,
      list: true,
      sortable: true,
      searchable: true,
      create: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'handle',
      label: 'Handle',
      type: 'text',
      source: users.handle,
      list: true,
      sortable: true,
      searchable: true,
      create: true,
      edit: true,
      inline: true,
    },
    // Moderators work on content and conduct; they never need an address.
    {
      name: 'email',
      label: 'E-mail',
      type: 'text',
      source: users.email,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
      create: true,
      edit: true,
      required: true,
      hiddenFrom: ['moderator'],
    },
    {
      name: 'role',
      label: 'Role',
      type: 'enum',
      choices: ROLES,
      source: users.role,
      list: true,
      sortable: true,
      filterable: true,
      create: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'email_verified_at',
      label: 'E-mail confirmed',
      type: 'date',
      source: users.emailVerifiedAt,
      sortable: true,
      hiddenFrom: ['moderator'],
    },
    {
      name: 'pronouns',
      label: 'Pronouns',
      type: 'text',
      source: users.pronouns,
      create: true,
      edit: true,
    },
    {
      name: 'about',
      label: 'About',
      type: 'textarea',
      source: users.about,
      create: true,
      edit: true,
    },
    {
      name: 'website',
      label: 'Website',
      type: 'text',
      source: users.website,
      create: true,
      edit: true,
    },
    // Set and cleared by the suspend and lift-suspension actions (modules/moderation) only.
    {
      name: 'suspended_at',
      label: 'Suspended',
      type: 'date',
      source: users.suspendedAt,
      list: true,
      sortable: true,
    },
    {
      name: 'suspension_reason',
      label: 'Suspension reason',
      type: 'text',
      source: users.suspensionReason,
    },
    {
      name: 'manuscripts',
      label: 'Manuscripts',
      type: 'number',
      source: sql<number>`(select count(*)::int from ${schema.manuscripts} where ${qualified(schema.manuscripts.userId)} = ${qualified(users.id)})`,
      list: true,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Signed up',
      type: 'date',
      source: users.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  createSchema: z.object({ ...userFields, role: userFields.role.default('user') }),
  updateSchema: z.object(userFields).partial(),
  // An account made here has no password anyone knows: its owner logs in with a log-in link.
  createValues: async () => ({
    passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
  }),
  checkWrite: async (write, { before, input }) => {
    if (before?.role !== 'admin' || input.role === undefined || input.role === 'admin') return;
    const admins = await lockedAdminIds(write);
    if (admins.filter((id) => id !== before.id).length === 0) {
      return { role: [ADMIN_MESSAGES.lastAdmin] };
    }
    return undefined;
  },
  remove: async (write, id) => {
    const admins = await lockedAdminIds(write);
    if (admins.includes(id) && admins.length === 1)
      throw badRequest({ role: [ADMIN_MESSAGES.lastAdmin] }, ADMIN_MESSAGES.lastAdmin);
    await write.tx.delete(users).where(eq(users.id, id));
  },
  bulkActions: moderationUserActions,
  moderatorViews: ['list', 'details', 'lookup', 'bulk'],
};
