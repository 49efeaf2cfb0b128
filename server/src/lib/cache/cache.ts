import { getTableName, isTable } from 'drizzle-orm';
import { schema } from '../../db/index.ts';
import {
  changeListenerOf,
  type ChangeChannel,
  type ChangeListener,
} from '../../db/change-listener.ts';
import { tableVersionsOf, type TableVersions } from './table-versions.ts';

// The one way the server keeps a value (see ARCHITECTURE.md, "Kept values"): a cache is
// declared once with what its values depend on — the tables they read (dropped when the
// database says one changed: migration 0012's triggers), keyed notices (a row's trigger names
// the user or session that changed), a time-out, or nothing at all (keyed by something that
// never changes, such as a draft's id) — and how much it may keep. Every cache counts its hits
// and misses (cacheStats, for metrics). One instance per database: the ids in keys are that
// database's own (tests and benchmarks open several in one process).

/** The application's tables, by their database names (a declaration naming another throws). */
const TABLES = new Set<string>(
  Object.values(schema)
    .filter((value) => isTable(value))
    .map((table) => getTableName(table)),
);

/** What a cache's values depend on. */
interface Dependencies<V> {
  /**
   * The tables its values read: a committed write to any of them drops every value (statement
   * triggers, so foreign-key cascades and tables written by triggers count, and a rollback does
   * not). Values are kept only while this process hears the changes (its listener is live).
   */
  tables?: readonly string[];
  /**
   * Notices on a channel announcing which rows changed (migration 0009's row triggers): the
   * handler forgets what they name. Values are kept only while the listener is live.
   */
  notices?: { channel: ChangeChannel; forget(payload: string, cache: Cache<V>): void };
  /** The longest a value is kept, in ms (a time-out; with nothing else: the staleness allowed). */
  ttlMs?: number;
  /** Why no value can ever change (its key names something immutable, e.g. a draft's id). */
  immutable?: string;
}

/** How much a cache may keep: a number of values, or bytes as `sizeOf` counts them. */
type Limit<V> = { entries: number } | { bytes: number; sizeOf(value: V): number };

export interface CacheDeclaration<V> {
  /** Its name in the metrics (snake_case). */
  name: string;
  dependsOn: Dependencies<V>;
  limit: Limit<V>;
  /**
   * With `tables`: 'exact' (the default) uses a value only once every change committed before
   * the lookup has been heard — at once on the embedded database, after one shared round trip
   * on PostgreSQL; 'prompt' uses what has been heard (on PostgreSQL within a round trip of the
   * commit), for lookups on the path of every request.
   */
  freshness?: 'exact' | 'prompt';
  /** Names a value is known by besides its key (`u:12`: a user's), so forgetTagged finds it. */
  tagsOf?(key: string, value: V): readonly string[];
}

interface Entry<V> {
  value: V;
  /** The tables' version it was computed under ('' without tables). */
  version: string;
  /** Date.now() past which it is not used (Infinity without a time-out). */
  expiresAt: number;
  bytes: number;
  tags: readonly string[];
}

type ListenerContext = Parameters<typeof changeListenerOf>[0];
/**
 * Whose values: an app's context (or its database handle alone, for a cache that depends on a
 * time-out or on nothing: it needs no listener).
 */
export type CacheContext = Pick<ListenerContext, 'db'> & Partial<ListenerContext>;

function listenerContext(name: string, ctx: CacheContext): ListenerContext {
  if (!ctx.database || !ctx.log)
    throw new Error(`cache ${name} hears changes: give it the app's context`);
  return ctx as ListenerContext;
}

/** Hits and misses of one declared cache, over every database of this process. */
interface Counts {
  hits: number;
  misses: number;
}

const declared: Array<{
  declaration: CacheDeclaration<unknown>;
  counts: Counts;
  instances: Set<WeakRef<Cache<unknown>>>;
  definition: CacheDefinition<unknown>;
}> = [];

/** A declared cache: `of(ctx)` is its instance for that app's database. */
export interface CacheDefinition<V> {
  readonly declaration: CacheDeclaration<V>;
  of(ctx: CacheContext): Cache<V>;
  /**
   * The one instance of the process, for values keyed by what is the same in every database
   * the process opens, or callers with no database at hand (immutable or timed values only).
   */
  shared(): Cache<V>;
}

/** The key of shared() instances. */
const PROCESS = { db: {} };

/** Declares a cache (at module load: a mistake in the declaration throws at start). */
export function defineCache<V>(declaration: CacheDeclaration<V>): CacheDefinition<V> {
  const { tables, notices, ttlMs, immutable } = declaration.dependsOn;
  for (const table of tables ?? []) {
    if (!TABLES.has(table)) throw new Error(`cache ${declaration.name}: no table ${table}`);
  }
  if (!tables?.length && !notices && ttlMs === undefined && !immutable) {
    throw new Error(`cache ${declaration.name}: say what its values depend on`);
  }
  const record = {
    declaration,
    counts: { hits: 0, misses: 0 },
    instances: new Set<WeakRef<Cache<unknown>>>(),
    definition: null as unknown as CacheDefinition<unknown>,
  };
  declared.push(record as (typeof declared)[number]);
  const instances = new WeakMap<object, Cache<V>>();
  const definition: CacheDefinition<V> = {
    declaration,
    of(ctx) {
      let cache = instances.get(ctx.db);
      // A listener closed with its app (and made anew by the next app on this database).
      if (
        cache?.listener &&
        cache.listener !== changeListenerOf(listenerContext(declaration.name, ctx))
      ) {
        cache = undefined;
      }
      if (!cache) {
        cache = new Cache(declaration, ctx, record.counts);
        instances.set(ctx.db, cache);
        record.instances.add(new WeakRef(cache as Cache<unknown>));
      }
      return cache;
    },
    shared() {
      if (tables?.length || notices) throw new Error(`cache ${declaration.name} is per database`);
      return this.of(PROCESS);
    },
  };
  record.definition = definition as CacheDefinition<unknown>;
  return definition;
}

/** Every cache declared so far (tests go through each). */
export function declaredCaches(): Array<CacheDefinition<unknown>> {
  return declared.map((record) => record.definition);
}

/** Every declared cache's counts and size in this process (the metrics read it). */
export function cacheStats(): Array<{
  name: string;
  hits: number;
  misses: number;
  entries: number;
  bytes: number;
}> {
  return declared.map(({ declaration, counts, instances }) => {
    let entries = 0;
    let bytes = 0;
    for (const ref of instances) {
      const cache = ref.deref();
      if (!cache) {
        instances.delete(ref);
        continue;
      }
      const size = cache.size();
      entries += size.entries;
      bytes += size.bytes;
    }
    return { name: declaration.name, ...counts, entries, bytes };
  });
}

/** The values of one declared cache for one database (see defineCache). */
export class Cache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** The keys kept under each tag (tagsOf). */
  private readonly tagged = new Map<string, Set<string>>();
  private bytes = 0;
  /** Computations under way, by key and version: concurrent misses compute once. */
  private readonly pending = new Map<string, Promise<V>>();
  /** Bumped by every forget: a value computed across one is not kept. */
  private epoch = 0;
  private readonly tables: readonly string[];
  private readonly versions: TableVersions | null;
  /** The listener whose notifications it hears (null: it hears none). */
  readonly listener: ChangeListener | null;
  private computed = 0;
  /** Off: nothing is kept (every get computes). */
  enabled = true;

  constructor(
    private readonly declaration: CacheDeclaration<V>,
    ctx: CacheContext,
    private readonly counts: Counts,
  ) {
    const { tables = [], notices } = declaration.dependsOn;
    this.tables = [...tables].sort();
    const hears = this.tables.length > 0 || notices !== undefined;
    const context = hears ? listenerContext(declaration.name, ctx) : null;
    this.versions = context && this.tables.length > 0 ? tableVersionsOf(context) : null;
    const listener = context ? changeListenerOf(context) : null;
    this.listener = listener;
    if (listener) listener.onDown(() => this.clear());
    if (notices && listener)
      listener.on(notices.channel, (payload) => notices.forget(payload, this));
  }

  /** Whether values may be kept and used now (the changes they depend on reach this process). */
  get active(): boolean {
    return this.enabled && (this.listener?.live ?? true);
  }

  /**
   * The value for `key`: kept if nothing it depends on changed since it was computed, else
   * computed now (and kept). Concurrent misses of one key compute once.
   */
  async get(key: string, compute: () => Promise<V>): Promise<V> {
    if (this.versions && this.declaration.freshness !== 'prompt') await this.versions.caughtUp();
    if (!this.active) {
      this.counts.misses++;
      this.computed++;
      return compute();
    }
    const version = this.versions?.versionOf(this.tables) ?? '';
    const known = this.usable(key, version);
    if (known) {
      this.counts.hits++;
      return known.value;
    }
    this.counts.misses++;
    const pendingKey = `${key}\u0000${version}`;
    const pending = this.pending.get(pendingKey);
    if (pending) return pending;
    this.computed++;
    const epoch = this.epoch;
    const work = compute()
      .then((value) => {
        if (epoch === this.epoch) this.keep(key, version, value);
        return value;
      })
      .finally(() => this.pending.delete(pendingKey));
    this.pending.set(pendingKey, work);
    return work;
  }

  /** The kept value for `key` if it is still good (no computation), else undefined. */
  peek(key: string): V | undefined {
    if (!this.active) return undefined;
    const value = this.usable(key, this.versions?.versionOf(this.tables) ?? '')?.value;
    if (value === undefined) this.counts.misses++;
    else this.counts.hits++;
    return value;
  }

  /** Whether a good value is kept for `key` (counts nothing). */
  has(key: string): boolean {
    const entry = this.active ? this.entries.get(key) : undefined;
    return (
      entry !== undefined &&
      entry.version === (this.versions?.versionOf(this.tables) ?? '') &&
      entry.expiresAt > Date.now()
    );
  }

  /** The epoch to hand back to set(): taken before the read whose answer set() keeps. */
  mark(): number {
    return this.epoch;
  }

  /**
   * Keeps a value read by the caller since `mark()` (for callers that read many keys in one
   * statement); dropped if anything was forgotten meanwhile. `ttlMs` may shorten the time-out.
   */
  set(epoch: number, key: string, value: V, ttlMs?: number): void {
    if (!this.active || epoch !== this.epoch) return;
    this.keep(key, this.versions?.versionOf(this.tables) ?? '', value, ttlMs);
  }

  /** Forgets one key. */
  forget(key: string): void {
    this.epoch++;
    this.drop(key);
  }

  /** Forgets every value kept under `tag` (tagsOf). */
  forgetTagged(tag: string): void {
    this.epoch++;
    for (const key of [...(this.tagged.get(tag) ?? [])]) this.drop(key);
  }

  /** Forgets every key and value for which `matches` says so. */
  forgetWhere(matches: (key: string, value: V) => boolean): void {
    this.epoch++;
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.drop(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.epoch++;
    this.entries.clear();
    this.tagged.clear();
    this.bytes = 0;
  }

  /** How many values and bytes are kept. */
  size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** How many values were computed through get(), kept or not (tests). */
  computations(): number {
    return this.computed;
  }

  private usable(key: string, version: string): Entry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version || entry.expiresAt <= Date.now()) {
      this.drop(key);
      return undefined;
    }
    // Most recently used last: the first in the map is the first out.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  private keep(key: string, version: string, value: V, ttlMs?: number): void {
    const { limit, dependsOn } = this.declaration;
    const bytes = 'sizeOf' in limit ? limit.sizeOf(value) : 0;
    this.drop(key);
    if ('bytes' in limit && bytes > limit.bytes) return;
    const ttl = Math.min(ttlMs ?? Infinity, dependsOn.ttlMs ?? Infinity);
    const tags = this.declaration.tagsOf?.(key, value) ?? [];
    this.entries.set(key, { value, version, expiresAt: Date.now() + ttl, bytes, tags });
    this.bytes += bytes;
    for (const tag of tags) {
      let keys = this.tagged.get(tag);
      if (!keys) this.tagged.set(tag, (keys = new Set()));
      keys.add(key);
    }
    for (const [oldKey] of this.entries) {
      if ('bytes' in limit ? this.bytes <= limit.bytes : this.entries.size <= limit.entries) break;
      this.drop(oldKey);
    }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
    for (const tag of entry.tags) {
      const keys = this.tagged.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.tagged.delete(tag);
    }
  }
}
