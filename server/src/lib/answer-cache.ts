import type { Database } from '../db/index.ts';
import { changeMark, type MarkScope } from './change-mark.ts';

// Answers kept while the database has not changed (change-mark.ts): a key (whose answer, e.g.
// "viewer 12, manuscript 3") maps to the answer computed under a mark, valid while the mark
// holds. Least recently used first out, within a byte budget. One cache per database: the
// ids in keys are that database's own (tests and benchmarks open several in one process).

interface Entry<V> {
  mark: string;
  value: V;
  bytes: number;
}

interface Store<V> {
  entries: Map<string, Entry<V>>;
  bytes: number;
  /** Computations under way, by key and mark: concurrent misses compute once. */
  pending: Map<string, Promise<V>>;
  /** How many answers were computed (tests). */
  computations: number;
}

/** A cache of answers by key, each valid while the database's change mark holds. */
export class AnswerCache<V> {
  private readonly stores = new WeakMap<Database, Store<V>>();

  /**
   * @param budgetBytes  the most the kept answers may weigh (as sizeOf counts them)
   * @param sizeOf       an answer's weight in bytes
   * @param scope        the mark's view the answers may use: they read none of its tables
   */
  constructor(
    private readonly budgetBytes: number,
    private readonly sizeOf: (value: V) => number,
    private readonly scope?: MarkScope,
  ) {}

  private storeOf(database: Database): Store<V> {
    let store = this.stores.get(database);
    if (!store) {
      store = { entries: new Map(), bytes: 0, pending: new Map(), computations: 0 };
      this.stores.set(database, store);
    }
    return store;
  }

  /** The answer for `key`: kept if the database has not changed since, else computed now. */
  async get(database: Database, key: string, compute: () => Promise<V>): Promise<V> {
    const mark = await changeMark(database, this.scope);
    const store = this.storeOf(database);
    const known = store.entries.get(key);
    if (known && known.mark === mark) {
      store.entries.delete(key);
      store.entries.set(key, known);
      return known.value;
    }
    const pendingKey = `${key}\u0000${mark}`;
    const pending = store.pending.get(pendingKey);
    if (pending) return pending;
    store.computations++;
    const work = compute()
      .then((value) => {
        this.keep(store, key, mark, value);
        return value;
      })
      .finally(() => store.pending.delete(pendingKey));
    store.pending.set(pendingKey, work);
    return work;
  }

  /** How many answers and bytes are kept for this database (for tests). */
  size(database: Database): { entries: number; bytes: number } {
    const store = this.storeOf(database);
    return { entries: store.entries.size, bytes: store.bytes };
  }

  /** How many answers were computed for this database, kept or not (for tests). */
  computations(database: Database): number {
    return this.storeOf(database).computations;
  }

  private keep(store: Store<V>, key: string, mark: string, value: V): void {
    const bytes = this.sizeOf(value);
    const old = store.entries.get(key);
    if (old) {
      store.entries.delete(key);
      store.bytes -= old.bytes;
    }
    if (bytes > this.budgetBytes) return;
    store.entries.set(key, { mark, value, bytes });
    store.bytes += bytes;
    for (const [oldKey, entry] of store.entries) {
      if (store.bytes <= this.budgetBytes) break;
      store.entries.delete(oldKey);
      store.bytes -= entry.bytes;
    }
  }
}
