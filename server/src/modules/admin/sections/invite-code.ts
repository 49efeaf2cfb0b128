import { z } from 'zod';
import { schema } from '../../../db/index.ts';
import { randomInviteCode } from '../../profile/invite-codes.ts';
import type { SectionDeclaration } from '../types.ts';
import { referenceId } from './fields.ts';

const codes = schema.platformInviteCodes;

/** Platform invite codes (sign-up with INVITES_ENABLED): issue, look up, revoke. */
export const inviteCodeSection: SectionDeclaration = {
  name: 'invite-code',
  label: 'Invite codes',
  table: codes,
  id: codes.id,
  labelField: 'code',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'code',
      label: 'Code',
      type: 'text',
      source: codes.code,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
      create: true,
    },
    {
      name: 'created_by_id',
      label: 'Created by',
      type: 'reference',
      reference: 'user',
      source: codes.createdById,
      list: true,
      filterable: true,
      create: true,
      edit: true,
    },
    {
      name: 'redeemed_by_id',
      label: 'Redeemed by',
      type: 'reference',
      reference: 'user',
      source: codes.redeemedById,
      list: true,
      filterable: true,
    },
    {
      name: 'redeemed_at',
      label: 'Redeemed',
      type: 'date',
      source: codes.redeemedAt,
      list: true,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Created',
      type: 'date',
      source: codes.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
  createSchema: z.object({
    /** Left out: a random code, as users get. */
    code: z
      .string()
      .trim()
      .regex(/^[A-Z0-9]{6,32}$/, '6 to 32 capital letters or digits.')
      .optional(),
    created_by_id: referenceId.nullable().optional(),
  }),
  updateSchema: z.object({ created_by_id: referenceId.nullable() }).partial(),
  createValues: async (input) => (input.code ? {} : { code: randomInviteCode() }),
};
