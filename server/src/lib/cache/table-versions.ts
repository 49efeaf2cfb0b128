import {
  CHANGE_CHANNELS,
  changeListenerOf,
  type ChangeListener,
} from '../../db/change-listener.ts';

// Which tables changed, as the database says it (the change triggers of migration 0012: every
// statement that writes an application table announces the table's name on margins_changes at
// its commit). Each process counts the announcements per table; a kept value remembers the
// counts of the tables it read, and is good while they hold. No statement's text is read.

type ListenerContext = Parameters<typeof changeListenerOf>[0];

/** Per-table change counts of one database, as this process has heard them. */
export class TableVersions {
  private readonly counts = new Map<string, number>();
  /** Bumped whenever the listener stops: every count heard before may have missed a change. */
  private generation = 0;

  constructor(readonly listener: ChangeListener) {
    listener.on(CHANGE_CHANNELS.tables, (table) => {
      this.counts.set(table, (this.counts.get(table) ?? 0) + 1);
    });
    listener.onDown(() => this.generation++);
  }

  /** True while changes reach this process (a version means something only then). */
  get live(): boolean {
    return this.listener.live;
  }

  /**
   * The version of a set of tables now: it differs from an earlier one exactly when one of
   * them was written since (or the listener was down in between).
   */
  versionOf(tables: readonly string[]): string {
    let version = `${this.generation}`;
    for (const table of tables) version += `:${this.counts.get(table) ?? 0}`;
    return version;
  }

  /**
   * Resolves once every change committed before the call has been counted here: at once on
   * the embedded database (a notification arrives before the writing statement returns); on
   * PostgreSQL after a round trip on the listener's own connection (ChangeListener.caughtUp).
   */
  caughtUp(): Promise<void> {
    return this.listener.caughtUp();
  }
}

const versions = new WeakMap<object, TableVersions>();

/** The table versions of this app's database (made on first use, counting once its listener is live). */
export function tableVersionsOf(ctx: ListenerContext): TableVersions {
  const listener = changeListenerOf(ctx);
  let known = versions.get(ctx.db);
  // A listener closed with its app is made anew by the next app on this database.
  if (!known || known.listener !== listener) {
    known = new TableVersions(listener);
    versions.set(ctx.db, known);
  }
  return known;
}
