import { sql } from 'drizzle-orm';
import {
  FEATURE_NAMES,
  FEATURES_CACHE_MS,
  MODERATION_MESSAGES,
  type FeatureName,
} from '@margins/common';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { schema, type Executor } from '../../db/index.ts';
import { defineCache } from '../../lib/cache/cache.ts';

/** The switches as the app reads them. */
export interface Features {
  productsEnabled: boolean;
  invitesEnabled: boolean;
  /** The maintenance notice while it is on, else null. */
  maintenanceNotice: string | null;
}

interface FeatureRow {
  name: string;
  enabled: boolean;
  notice: string | null;
}

/** The environment's defaults: what a fresh database starts with. */
function defaultFeatures(config: Pick<Config, 'productsEnabled' | 'invitesEnabled'>) {
  return {
    productsEnabled: { enabled: config.productsEnabled, notice: null },
    invitesEnabled: { enabled: config.invitesEnabled, notice: null },
    maintenance: { enabled: false, notice: MODERATION_MESSAGES.maintenanceDefault },
  } satisfies Record<FeatureName, { enabled: boolean; notice: string | null }>;
}

/**
 * Writes the missing switches with the environment's defaults (first start, or a feature added
 * since). An existing row is never overwritten: an admin's choice outlives a restart.
 */
export async function seedFeatures(db: Executor, config: Config): Promise<void> {
  const defaults = defaultFeatures(config);
  await db
    .insert(schema.features)
    .values(FEATURE_NAMES.map((name) => ({ name, ...defaults[name] })))
    .onConflictDoNothing();
}

function toFeatures(rows: FeatureRow[], config: Config): Features {
  const defaults = defaultFeatures(config);
  const byName = new Map(rows.map((row) => [row.name, row]));
  const row = (name: FeatureName) => byName.get(name) ?? { name, ...defaults[name] };
  const maintenance = row('maintenance');
  return {
    productsEnabled: row('productsEnabled').enabled,
    invitesEnabled: row('invitesEnabled').enabled,
    maintenanceNotice: maintenance.enabled
      ? maintenance.notice?.trim() || MODERATION_MESSAGES.maintenanceDefault
      : null,
  };
}

/**
 * The switches, kept while the features table is unchanged (its change trigger, heard by every
 * process: on PostgreSQL within a round trip of the commit) and FEATURES_CACHE_MS at most,
 * should the notifications stall; every request reads them.
 */
const kept = defineCache<Features>({
  name: 'features',
  dependsOn: { tables: ['features'], ttlMs: FEATURES_CACHE_MS },
  freshness: 'prompt',
  limit: { entries: 1 },
});

type FeaturesContext = Pick<AppContext, 'db' | 'config' | 'database' | 'log'>;

/** The switches in force when this process's copy is good; else undefined. */
export function readFeaturesNow(ctx: FeaturesContext): Features | undefined {
  return kept.of(ctx).peek('features');
}

/** The switches now in force (kept as above; a failed read is not kept). */
export function readFeatures(ctx: FeaturesContext): Promise<Features> {
  return kept.of(ctx).get('features', async () => {
    const rows = await ctx.db
      .select({
        name: schema.features.name,
        enabled: schema.features.enabled,
        notice: schema.features.notice,
      })
      .from(schema.features);
    return toFeatures(rows, ctx.config);
  });
}

/** Forgets this process's copy (after a change, so it takes effect here at once). */
export function forgetFeatures(ctx: FeaturesContext): void {
  kept.of(ctx).clear();
}

/** Turns a switch on or off (and sets the maintenance notice); effective without a restart. */
export async function setFeature(
  ctx: FeaturesContext,
  name: FeatureName,
  change: { enabled?: boolean; notice?: string | null },
  tx: Executor = ctx.db,
): Promise<void> {
  const defaults = defaultFeatures(ctx.config)[name];
  await tx
    .insert(schema.features)
    .values({
      name,
      enabled: change.enabled ?? defaults.enabled,
      notice: change.notice === undefined ? defaults.notice : change.notice,
    })
    .onConflictDoUpdate({
      target: schema.features.name,
      set: {
        ...(change.enabled === undefined ? {} : { enabled: change.enabled }),
        ...(change.notice === undefined ? {} : { notice: change.notice }),
        updatedAt: sql`now()`,
      },
    });
  forgetFeatures(ctx);
}
