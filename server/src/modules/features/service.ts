import { eq, sql } from 'drizzle-orm';
import {
  FEATURE_NAMES,
  FEATURES_CACHE_MS,
  MODERATION_MESSAGES,
  type FeatureName,
} from '@margins/common';
import type { Config } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { schema, type Db, type Executor } from '../../db/index.ts';

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
export function defaultFeatures(config: Pick<Config, 'productsEnabled' | 'invitesEnabled'>) {
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

// Per database (tests open many in one process). Each process reads the table again after
// FEATURES_CACHE_MS, so a change made by another process is seen within that; the process that
// makes it forgets its copy at once (setFeature).
const cache = new WeakMap<Db, { at: number; features: Promise<Features>; read?: Features }>();

/** The switches in force when this process's copy is fresh and read; else undefined. */
export function readFeaturesNow(ctx: Pick<AppContext, 'db'>): Features | undefined {
  const kept = cache.get(ctx.db);
  return kept && Date.now() - kept.at < FEATURES_CACHE_MS ? kept.read : undefined;
}

/** The switches now in force (read from the table at most every FEATURES_CACHE_MS). */
export function readFeatures(ctx: Pick<AppContext, 'db' | 'config'>): Promise<Features> {
  const kept = cache.get(ctx.db);
  if (kept && Date.now() - kept.at < FEATURES_CACHE_MS) return kept.features;
  const features = ctx.db
    .select({
      name: schema.features.name,
      enabled: schema.features.enabled,
      notice: schema.features.notice,
    })
    .from(schema.features)
    .then((rows) => toFeatures(rows, ctx.config));
  const entry: { at: number; features: Promise<Features>; read?: Features } = {
    at: Date.now(),
    features,
  };
  cache.set(ctx.db, entry);
  features.then((read) => (entry.read = read)).catch(() => undefined);
  // A failed read is not kept: the next caller tries again.
  features.catch(() => cache.delete(ctx.db));
  return features;
}

/** Forgets this process's copy (after a change, so it takes effect here at once). */
export function forgetFeatures(db: Db): void {
  cache.delete(db);
}

/** Turns a switch on or off (and sets the maintenance notice); effective without a restart. */
export async function setFeature(
  ctx: Pick<AppContext, 'db' | 'config'>,
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
  forgetFeatures(ctx.db);
}

/** One switch's row (for the admin section's details). */
export async function findFeature(db: Executor, name: string): Promise<FeatureRow | null> {
  const [row] = await db
    .select({
      name: schema.features.name,
      enabled: schema.features.enabled,
      notice: schema.features.notice,
    })
    .from(schema.features)
    .where(eq(schema.features.name, name));
  return row ?? null;
}
