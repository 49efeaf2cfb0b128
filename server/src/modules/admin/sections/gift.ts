import { sql } from 'drizzle-orm';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';

const gifts = schema.gifts;

/**
 * Gifts bought for someone (read only: a gift is a payment, made and redeemed by its people).
 * The code is never presented, listed or exported: it is a bearer secret — whoever holds it
 * redeems the plan — and the recipient has it by mail; support needs only whether it was
 * redeemed. Admin only (money).
 */
export const giftSection: SectionDeclaration = {
  name: 'gift',
  label: 'Gifts',
  table: gifts,
  id: gifts.id,
  labelField: 'recipient_email',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  deletable: false,
  fields: [
    {
      name: 'recipient_email',
      label: 'Recipient',
      type: 'text',
      source: gifts.recipientEmail,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
    },
    {
      name: 'purchaser_id',
      label: 'Bought by',
      type: 'reference',
      reference: 'user',
      source: gifts.purchaserId,
      list: true,
      filterable: true,
    },
    {
      name: 'product_id',
      label: 'Plan',
      type: 'reference',
      reference: 'product',
      source: gifts.productId,
      list: true,
      filterable: true,
    },
    {
      name: 'interval',
      label: 'Interval',
      type: 'enum',
      choices: ['month', 'year'],
      source: gifts.interval,
      list: true,
      filterable: true,
    },
    {
      name: 'amount',
      label: 'Amount (minor units)',
      type: 'number',
      source: gifts.amount,
      list: true,
      sortable: true,
    },
    {
      name: 'provider',
      label: 'Provider',
      type: 'enum',
      choices: ['local', 'stripe'],
      source: gifts.provider,
      filterable: true,
    },
    {
      name: 'state',
      label: 'State',
      type: 'enum',
      choices: ['unredeemed', 'redeemed'],
      source: sql<string>`(case when ${gifts.redeemedAt} is null then 'unredeemed' else 'redeemed' end)`,
      list: true,
      sortable: true,
    },
    {
      name: 'redeemed_by_id',
      label: 'Redeemed by',
      type: 'reference',
      reference: 'user',
      source: gifts.redeemedById,
      filterable: true,
    },
    {
      name: 'redeemed_at',
      label: 'Redeemed',
      type: 'date',
      source: gifts.redeemedAt,
      list: true,
      sortable: true,
    },
    {
      name: 'created_at',
      label: 'Bought',
      type: 'date',
      source: gifts.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
};
