import type { Db } from '../../db/index.ts';

/** How long Discover's counts are reused (they move with every upload). */
const KEPT_MS = 30_000;
/** Keys per store and database; a full store starts again. */
const MAX_KEYS = 500;

/**
 * Counts kept KEPT_MS by key, per database (tests open many in one process): a search without
 * words keeps its totals and facets, a filtered search the facets of its words.
 */
export class KeptCounts<T> {
  private readonly byDb = new WeakMap<Db, Map<string, { at: number; value: T }>>();

  get(db: Db, key: string): T | null {
    const entry = this.byDb.get(db)?.get(key);
    return entry && Date.now() - entry.at <= KEPT_MS ? entry.value : null;
  }

  set(db: Db, key: string, value: T): void {
    let kept = this.byDb.get(db);
    if (!kept) {
      kept = new Map();
      this.byDb.set(db, kept);
    }
    if (kept.size >= MAX_KEYS) kept.clear();
    kept.set(key, { at: Date.now(), value });
  }

  delete(db: Db, key: string): void {
    this.byDb.get(db)?.delete(key);
  }
}
