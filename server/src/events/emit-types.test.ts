// A type test (issue 34 item 4): an event exists exactly when its change does, so emit() takes
// only the handle of ctx.events.transaction(). `npm run typecheck` (tsc over every test file,
// the first step of `npm run check`) fails if any of the lines below compiles, or stops failing.
import { describe, expectTypeOf, it } from 'vitest';
import type { AppContext, DomainEvents, EventTx } from '../context.ts';
import type { Db, Executor, Tx } from '../db/index.ts';
import type { DomainEvent } from './definitions.ts';

/** Never called: each marked line must not compile. */
export function refusedAtCompileTime(ctx: AppContext, tx: Tx, event: DomainEvent): void {
  // @ts-expect-error ctx.db: each statement commits alone, a crash after it loses the event
  void ctx.events.emit(ctx.db, event);
  // @ts-expect-error a bare db.transaction(): nobody writes its events' rows before its commit
  void ctx.events.emit(tx, event);
  void ctx.db.transaction(async (bare) => {
    // @ts-expect-error the same, inline
    await ctx.events.emit(bare, event);
  });
  // Inside ctx.events.transaction() it compiles.
  void ctx.events.transaction((eventTx) => ctx.events.emit(eventTx, event));
}

describe('emit takes only a transaction of ctx.events.transaction()', () => {
  it('is typed so that neither ctx.db nor a bare transaction is one', () => {
    expectTypeOf<Parameters<DomainEvents['emit']>[0]>().toEqualTypeOf<EventTx>();
    expectTypeOf<
      Parameters<Parameters<DomainEvents['transaction']>[0]>[0]
    >().toEqualTypeOf<EventTx>();
    expectTypeOf<Db>().not.toExtend<EventTx>();
    expectTypeOf<Tx>().not.toExtend<EventTx>();
    // It is still a transaction: every write helper that takes one takes it.
    expectTypeOf<EventTx>().toExtend<Tx>();
    expectTypeOf<EventTx>().toExtend<Executor>();
  });
});
