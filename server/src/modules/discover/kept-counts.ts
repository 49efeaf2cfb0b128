import type { Db } from '../../db/index.ts';
import { defineCache, type CacheDefinition } from '../../lib/cache/cache.ts';

/** How long Discover's counts are reused (they move with every upload, bookmark and comment). */
const KEPT_MS = 30_000;
/** Keys per store and database. */
const MAX_KEYS = 500;

/**
 * Counts kept KEPT_MS by key, per database: a search without words keeps its totals and facets,
 * a filtered search the facets of its words. Knowingly up to 30 s behind (lib/cache: a time-out
 * alone), since they are computed over every manuscript Discover may show.
 */
export class KeptCounts<T> {
  private readonly cache: CacheDefinition<T>;

  constructor(name: string) {
    this.cache = defineCache<T>({
      name,
      dependsOn: { ttlMs: KEPT_MS },
      limit: { entries: MAX_KEYS },
    });
  }

  get(db: Db, key: string): T | null {
    return this.cache.of({ db }).peek(key) ?? null;
  }

  set(db: Db, key: string, value: T): void {
    const cache = this.cache.of({ db });
    cache.set(cache.mark(), key, value);
  }

  delete(db: Db, key: string): void {
    this.cache.of({ db }).forget(key);
  }
}
