import { z } from 'zod';
import { schema } from '../../../db/index.ts';
import type { FieldErrors } from '../../../lib/http-errors.ts';
import type { SectionDeclaration } from '../types.ts';
import { yesNo } from './fields.ts';

const coupons = schema.coupons;

const percentOff = z.coerce
  .number({ error: 'Enter a percentage.' })
  .int('Enter a whole percentage.')
  .min(1, 'Enter a percentage from 1 to 100.')
  .max(100, 'Enter a percentage from 1 to 100.');
const amountOff = z.coerce
  .number({ error: 'Enter an amount in cents.' })
  .int('Enter a whole number of cents.')
  .min(1, 'Enter an amount of at least 1 cent.')
  .max(100_000_00, 'Enter at most 10,000,000 cents.');
/** An expiry must lie ahead: a coupon made already expired is a mistake. */
const expiresAt = z.coerce
  .date({ error: 'Enter a date and time.' })
  .refine((date) => date.getTime() > Date.now(), 'Choose a date in the future.');
const maxRedemptions = z.coerce
  .number({ error: 'Enter a number of redemptions.' })
  .int('Enter a whole number of redemptions.')
  .min(1, 'Enter at least 1 redemption.')
  .max(2_147_483_647, 'Enter a smaller number.');

const both = 'Set either a percentage or an amount off, not both.';
const neither = 'Set a percentage or an amount off.';

/**
 * Coupons of the local provider (money: admin only). Exactly one of percent and amount off is
 * set (checked against the row as it will be, so an edit may switch one for the other by
 * clearing it); times redeemed is counted by checkout and never written here.
 */
export const couponSection: SectionDeclaration = {
  name: 'coupon',
  label: 'Coupons',
  table: coupons,
  id: coupons.id,
  labelField: 'code',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'code',
      label: 'Code',
      type: 'text',
      source: coupons.code,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
      create: true,
      required: true,
    },
    {
      name: 'percent_off',
      label: 'Percent off',
      type: 'number',
      source: coupons.percentOff,
      list: true,
      sortable: true,
      create: true,
      edit: true,
    },
    {
      name: 'amount_off',
      label: 'Amount off (cents)',
      type: 'number',
      source: coupons.amountOff,
      list: true,
      sortable: true,
      create: true,
      edit: true,
    },
    {
      name: 'expires_at',
      label: 'Expires',
      type: 'date',
      source: coupons.expiresAt,
      list: true,
      sortable: true,
      create: true,
      edit: true,
    },
    {
      name: 'max_redemptions',
      label: 'Redemption limit',
      type: 'number',
      source: coupons.maxRedemptions,
      list: true,
      create: true,
      edit: true,
    },
    {
      name: 'times_redeemed',
      label: 'Times redeemed',
      type: 'number',
      source: coupons.timesRedeemed,
      list: true,
      sortable: true,
    },
    {
      name: 'active',
      label: 'Active',
      type: 'boolean',
      source: coupons.active,
      list: true,
      filterable: true,
      create: true,
      edit: true,
      inline: true,
    },
    {
      name: 'created_at',
      label: 'Created',
      type: 'date',
      source: coupons.createdAt,
      list: true,
      sortable: true,
    },
  ],
  createSchema: z.object({
    // Stored upper-case, as checkout compares it.
    code: z
      .string({ error: 'Enter a code.' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9_-]{3,40}$/, '3 to 40 letters, digits, hyphens or underscores.'),
    percent_off: percentOff.nullable().optional(),
    amount_off: amountOff.nullable().optional(),
    expires_at: expiresAt.nullable().optional(),
    max_redemptions: maxRedemptions.nullable().optional(),
    active: yesNo.optional(),
  }),
  updateSchema: z
    .object({
      percent_off: percentOff.nullable(),
      amount_off: amountOff.nullable(),
      expires_at: expiresAt.nullable(),
      max_redemptions: maxRedemptions.nullable(),
      active: yesNo,
    })
    .partial(),
  checkWrite: async (_write, { before, input }) => {
    const value = (name: 'percent_off' | 'amount_off') =>
      name in input ? input[name] : (before?.[name] ?? null);
    const percent = value('percent_off');
    const amount = value('amount_off');
    const errors: FieldErrors = {};
    if (percent != null && amount != null) {
      errors.percent_off = [both];
      errors.amount_off = [both];
    } else if (percent == null && amount == null) {
      errors.percent_off = [neither];
      errors.amount_off = [neither];
    }
    // A limit below what checkout already counted would make the coupon's past a breach.
    const limit = input.max_redemptions;
    const redeemed = Number(before?.times_redeemed ?? 0);
    if (typeof limit === 'number' && limit < redeemed) {
      errors.max_redemptions = [`It has been redeemed ${redeemed} times already.`];
    }
    return Object.keys(errors).length ? errors : undefined;
  },
};
