import {
  EVENT_MARK_DELAY_MS,
  EVENT_RECOVERY_BATCH,
  EVENT_RECOVERY_GRACE_SECONDS,
} from '@margins/common';
import type { AppContext, DomainEvents, EventTx } from '../context.ts';
import type { Executor } from '../db/index.ts';
import { EVENT_PAYLOADS, type DomainEvent, type EventType } from './definitions.ts';
import {
  claimUndispatched,
  markDispatched,
  pruneDispatched,
  writeEventRows,
  type StoredEvent,
} from './outbox.ts';
import { RowReaders } from './recovered-rows.ts';

/**
 * What runs when an event happens. `inTransaction` runs in the writer's transaction, so what it
 * writes (a mail in the outbox) exists exactly when the change commits; it may fail the change.
 * `afterCommit` runs once the change is visible (socket fan-out, room re-checks, waking the
 * mailer); it never fails the change: an error is logged.
 */
interface EventSubscriber<Type extends EventType> {
  /** Says in the log which subscriber failed. */
  name: string;
  inTransaction?(ctx: AppContext, tx: Executor, event: DomainEvent<Type>): Promise<void>;
  afterCommit?(ctx: AppContext, event: DomainEvent<Type>): void | Promise<void>;
}

type AnySubscriber = {
  name: string;
  inTransaction?(ctx: AppContext, tx: Executor, event: DomainEvent): Promise<void>;
  afterCommit?(ctx: AppContext, event: DomainEvent): void | Promise<void>;
};

/**
 * The event bus (see ARCHITECTURE.md, "Events"). A writer calls emit(tx, event) in the
 * transaction of its change, opened with transaction(); the bus checks the payload against its
 * schema, writes the event's row (events table) in that transaction, runs the in-transaction
 * subscribers, and runs the after-commit ones in this process once that transaction has
 * committed, before transaction() returns, so the request answers after the fan-out and
 * evictions as it did when the writers called them; then it marks the rows dispatched. emit()
 * takes only that transaction's handle (EventTx): a change written on ctx.db and emitted after
 * would lose its event to a crash between the two, so it does not compile. A change of one
 * statement writes its event's row in that statement instead (emitWritten). Rows a dead process
 * left undispatched are dispatched by recover() (at start and by the dispatch-events job:
 * events/sweep-job.ts), at least once.
 */
export class EventBus implements DomainEvents {
  private readonly subscribers = new Map<EventType, AnySubscriber[]>();
  /** The events of each open transaction, until it commits (a rollback drops them and their rows). */
  private readonly pending = new WeakMap<object, DomainEvent[]>();
  private context: AppContext | null = null;
  /** Dispatched rows waiting to be marked, and the chain of marking statements. */
  private readonly toMark: number[] = [];
  private marking: Promise<void> = Promise.resolve();
  /** How recovered events' rows are read back: the modules register theirs (app.ts). */
  readonly rowReaders = new RowReaders();

  private get ctx(): AppContext {
    if (!this.context) throw new Error('EventBus is not attached');
    return this.context;
  }

  /** Gives the bus the app's context (it is part of it, so it comes after). */
  attach(ctx: AppContext): void {
    this.context = ctx;
  }

  subscribe<Type extends EventType>(type: Type, subscriber: EventSubscriber<Type>): void {
    const list = this.subscribers.get(type) ?? [];
    // The map is keyed by type, so a subscriber only ever gets events of its own type.
    list.push(subscriber as unknown as AnySubscriber);
    this.subscribers.set(type, list);
  }

  async emit(tx: EventTx, event: DomainEvent): Promise<void> {
    const ctx = this.ctx;
    // A writer's mistake, not the user's: a payload off its schema throws (and rolls back).
    EVENT_PAYLOADS[event.type].parse(event.payload);
    const pending = this.pending.get(tx);
    // The type already refuses any other handle; this is for one cast past it.
    if (pending === undefined) {
      throw new Error(`${event.type}: emit inside ctx.events.transaction()`);
    }
    for (const subscriber of this.subscribers.get(event.type) ?? []) {
      if (subscriber.inTransaction) await subscriber.inTransaction(ctx, tx, event);
    }
    pending.push(event);
  }

  /**
   * A change written in one statement together with its event's row (outbox.ts eventRowInsert),
   * committed when `write` returns: the after-commit subscribers of the event it answers run
   * then (none when it answers null: nothing was written). Only for event types without
   * in-transaction subscribers, since there is no transaction for them to write in: for one of
   * those it throws before `write` runs, so nothing is written.
   */
  async emitWritten<Type extends EventType>(
    type: Type,
    write: () => Promise<(DomainEvent<Type> & { eventId: number }) | null>,
  ): Promise<void> {
    const inTransaction = (this.subscribers.get(type) ?? []).find(
      (subscriber) => subscriber.inTransaction,
    );
    if (inTransaction) {
      throw new Error(
        `${type}: ${inTransaction.name} runs in the writer's transaction; emit it in one`,
      );
    }
    // A generic DomainEvent<Type> is one of the union's members; TypeScript cannot see which.
    const event = (await write()) as DomainEvent | null;
    if (!event) return;
    EVENT_PAYLOADS[event.type].parse(event.payload);
    await this.dispatch([event]);
  }

  async transaction<Result>(
    work: (tx: EventTx) => Promise<Result>,
    joining?: EventTx,
  ): Promise<Result> {
    if (joining) return work(joining);
    const events: DomainEvent[] = [];
    const result = await this.ctx.db.transaction(async (opened) => {
      // The one place a handle becomes an EventTx: its events are written before its commit.
      const tx = opened as EventTx;
      this.pending.set(tx, events);
      const value = await work(tx);
      // The rows of every event of the change, in one statement at its end, still before the
      // commit: they exist exactly when the change does.
      const ids = await writeEventRows(tx, events);
      ids.forEach((eventId, index) => (events[index] = { ...events[index]!, eventId }));
      return value;
    });
    await this.dispatch(events);
    return result;
  }

  /**
   * Dispatches the rows a dead process left undispatched (older than `graceSeconds`: younger
   * ones may still be on their way in a live process), batch by batch; returns how many. The
   * rows a live writer hands over are read back (withRowsReadBack); an event whose subject is
   * gone since, or whose row no longer parses, is marked dispatched without its subscribers.
   */
  async recover({
    graceSeconds = EVENT_RECOVERY_GRACE_SECONDS,
  }: { graceSeconds?: number } = {}): Promise<number> {
    let recovered = 0;
    for (;;) {
      const claimed = await claimUndispatched(this.ctx.db, graceSeconds);
      for (const row of claimed) {
        const event = await this.readBack(row);
        if (event) await this.runAfterCommit(event);
        await markDispatched(this.ctx.db, [row.id]);
        recovered++;
      }
      if (claimed.length < EVENT_RECOVERY_BATCH) break;
    }
    if (recovered > 0) this.ctx.log.warn({ events: recovered }, 'dispatched recovered events');
    return recovered;
  }

  /** Deletes dispatched rows past the retention; returns how many. */
  prune(): Promise<number> {
    return pruneDispatched(this.ctx.db);
  }

  private async readBack(row: StoredEvent): Promise<DomainEvent | null> {
    const type = row.name as EventType;
    const payload = EVENT_PAYLOADS[type]?.safeParse(row.payload);
    if (!payload?.success) {
      this.ctx.log.error({ eventId: row.id, event: row.name }, 'event row does not parse');
      return null;
    }
    return this.rowReaders.withRowsReadBack(this.ctx.db, {
      type,
      actorId: row.actorId,
      payload: payload.data,
      eventId: row.id,
    });
  }

  /** Resolves once every row dispatched so far is marked (tests; the app's close). */
  settled(): Promise<void> {
    return this.marking;
  }

  private async dispatch(events: DomainEvent[]): Promise<void> {
    for (const event of events) await this.runAfterCommit(event);
    const ids = events.flatMap((event) => (event.eventId === undefined ? [] : [event.eventId]));
    this.markLater(ids);
  }

  /**
   * Marks the rows EVENT_MARK_DELAY_MS later, in one statement for every event dispatched
   * meanwhile: the request has its answer and the next write its database without waiting for
   * the mark, and a stream of writes costs a few marks a second, not one each. Until it is
   * written a row counts as undispatched, so a crash before it only means the sweep dispatches
   * it again (at least once), and only after the grace.
   */
  private markLater(ids: number[]): void {
    if (ids.length === 0) return;
    const flushPending = this.toMark.length > 0;
    this.toMark.push(...ids);
    if (flushPending) return;
    this.marking = this.marking
      .then(() => new Promise<void>((resolve) => setTimeout(resolve, EVENT_MARK_DELAY_MS)))
      .then(() => markDispatched(this.ctx.db, this.toMark.splice(0)))
      .catch((error: unknown) =>
        this.ctx.log.error({ err: error }, 'marking events dispatched failed'),
      );
  }

  private async runAfterCommit(event: DomainEvent): Promise<void> {
    for (const subscriber of this.subscribers.get(event.type) ?? []) {
      if (!subscriber.afterCommit) continue;
      try {
        await subscriber.afterCommit(this.ctx, event);
      } catch (error) {
        this.ctx.log.error({ err: error, event: event.type }, `${subscriber.name} failed`);
      }
    }
  }
}
