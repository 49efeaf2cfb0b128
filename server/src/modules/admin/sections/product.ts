import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';
import { optionalText, requiredLine, yesNo } from './fields.ts';

const products = schema.products;

const slug = z
  .string({ error: 'Enter a slug.' })
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Up to 40 lower-case letters, digits or hyphens.');
const wordLimit = z.coerce
  .number({ error: 'Enter a number of words.' })
  .int('Enter a whole number of words.')
  .min(0, 'Enter 0 or more words.')
  .max(2_000_000_000, 'Enter at most 2,000,000,000 words.');

/**
 * The pricing tiers (money: admin only, no moderator view). Prices are shown read-only: a
 * price's amount is what past subscriptions were sold at and, with Stripe, an immutable Stripe
 * price, so a new price is a catalogue change (seed + payments module), not an edit here. A new
 * product reaches Stripe through the payments module's catalogue sync (syncCatalogue) at start.
 * Products are never deleted (subscriptions and gifts point at them): clear `active` instead.
 */
export const productSection: SectionDeclaration = {
  name: 'product',
  label: 'Products',
  table: products,
  id: products.id,
  labelField: 'name',
  defaultSort: 'word_limit',
  defaultOrder: 'asc',
  deletable: false,
  fields: [
    {
      name: 'slug',
      label: 'Slug',
      type: 'text',
      source: products.slug,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
      create: true,
      required: true,
    },
    {
      name: 'name',
      label: 'Name',
      type: 'text',
      source: products.name,
      list: true,
      sortable: true,
      searchable: true,
      create: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'description',
      label: 'Description',
      type: 'textarea',
      source: products.description,
      searchable: true,
      create: true,
      edit: true,
    },
    {
      name: 'word_limit',
      label: 'Word limit',
      type: 'number',
      source: products.wordLimit,
      list: true,
      sortable: true,
      create: true,
      edit: true,
      required: true,
    },
    {
      name: 'active',
      label: 'Active',
      type: 'boolean',
      source: products.active,
      list: true,
      filterable: true,
      create: true,
      edit: true,
      inline: true,
    },
    {
      name: 'prices',
      label: 'Prices',
      type: 'text',
      // "month 900 usd, year 9000 usd" (minor units), active prices only. Written out with
      // table names: drizzle leaves columns unqualified here, and "id" would mean the price's.
      source: sql<string>`(select coalesce(string_agg(p.interval || ' ' || p.amount || ' ' || p.currency, ', ' order by p.interval), '') from prices p where p.product_id = "products"."id" and p.active)`,
      list: true,
    },
    {
      name: 'marketing_features',
      label: 'Marketing features',
      type: 'json',
      source: products.marketingFeatures,
    },
    {
      name: 'stripe_product_id',
      label: 'Stripe product',
      type: 'text',
      source: products.stripeProductId,
    },
    {
      name: 'created_at',
      label: 'Created',
      type: 'date',
      source: products.createdAt,
      sortable: true,
    },
  ],
  createSchema: z.object({
    slug,
    name: requiredLine('a name', 80),
    description: optionalText(1000, true).transform((value) => value ?? ''),
    word_limit: wordLimit,
    active: yesNo.optional(),
  }),
  updateSchema: z
    .object({
      name: requiredLine('a name', 80),
      description: optionalText(1000, true).transform((value) => value ?? ''),
      word_limit: wordLimit,
      active: yesNo,
    })
    .partial(),
};
