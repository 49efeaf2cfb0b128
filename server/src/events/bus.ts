import type { AppContext, DomainEvents } from '../context.ts';
import type { Executor, Tx } from '../db/index.ts';
import { EVENT_PAYLOADS, type DomainEvent, type EventType } from './definitions.ts';

/**
 * What runs when an event happens. `inTransaction` runs in the writer's transaction, so what it
 * writes (a mail in the outbox) exists exactly when the change commits; it may fail the change.
 * `afterCommit` runs once the change is visible (socket fan-out, room re-checks, waking the
 * mailer); it never fails the change: an error is logged.
 */
export interface EventSubscriber<Type extends EventType> {
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
 * The in-process event bus (see ARCHITECTURE.md, "Events"). A writer calls emit(tx, event) in
 * the transaction of its change, opened with transaction(); the bus checks the payload against
 * its schema, runs the in-transaction subscribers, and runs the after-commit ones once that
 * transaction has committed, before transaction() returns, so the request answers after the
 * fan-out and evictions as it did when the writers called them. A write outside a transaction
 * (one statement on ctx.db) has committed when it emits: its after-commit subscribers run at once.
 */
export class EventBus implements DomainEvents {
  private readonly subscribers = new Map<EventType, AnySubscriber[]>();
  /** The events of each open transaction, until it commits (a rollback drops them). */
  private readonly pending = new WeakMap<object, DomainEvent[]>();
  private context: AppContext | null = null;

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

  async emit(tx: Executor, event: DomainEvent): Promise<void> {
    const ctx = this.ctx;
    // A writer's mistake, not the user's: a payload off its schema throws (and rolls back).
    EVENT_PAYLOADS[event.type].parse(event.payload);
    const subscribers = this.subscribers.get(event.type) ?? [];
    for (const subscriber of subscribers) {
      if (subscriber.inTransaction) await subscriber.inTransaction(ctx, tx, event);
    }
    if (tx === ctx.db) {
      await this.dispatch([event]);
      return;
    }
    const pending = this.pending.get(tx);
    if (!pending) {
      throw new Error(`${event.type}: emit inside ctx.events.transaction(), not db.transaction()`);
    }
    pending.push(event);
  }

  async transaction<Result>(work: (tx: Tx) => Promise<Result>): Promise<Result> {
    const events: DomainEvent[] = [];
    const result = await this.ctx.db.transaction(async (tx) => {
      this.pending.set(tx, events);
      return work(tx);
    });
    await this.dispatch(events);
    return result;
  }

  private async dispatch(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
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
}
