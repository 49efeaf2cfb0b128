// A recovered event (its process died before dispatching it) has only its stored payload: the
// rows a live writer hands to the fan-out are read back, by the payload's ids, by the module
// the event's rows belong to. Each module registers its readers when the app is built (app.ts),
// so this infrastructure imports no module.
import type { Executor } from '../db/index.ts';
import {
  EVENT_PAYLOADS,
  type DomainEvent,
  type EventPayload,
  type EventRows,
  type EventType,
} from './definitions.ts';

/** An event type's rows as they are now, or null when what the event is about is gone. */
export type RowsReader<Type extends EventType> = (
  db: Executor,
  payload: EventPayload<Type>,
) => Promise<EventRows[Type] | null>;

/** A module's readers, for the event types whose rows are its own. */
export type RowsReaders = { [Type in EventType]?: RowsReader<Type> };

type RowlessType = {
  [Type in EventType]: EventRows[Type] extends undefined ? Type : never;
}[EventType];

/** The event types that carry no rows: nothing to read back. A new one must be listed here. */
const ROWLESS = {
  'manuscript.visibility_changed': true,
  'manuscript.archived': true,
  'manuscript.gate_changed': true,
  'access.revoked': true,
  'user.suspended': true,
  'user.unsuspended': true,
} as const satisfies Record<RowlessType, true>;

const isRowless = (type: EventType): type is RowlessType => Object.hasOwn(ROWLESS, type);

/** How each event type's rows are read back (one per EventBus, filled by the modules). */
export class RowReaders {
  private readonly readers = new Map<EventType, RowsReader<never>>();

  /** Adds a module's readers; an event type has one reader (a second, different one throws). */
  register(readers: RowsReaders): void {
    for (const [type, reader] of Object.entries(readers) as Array<[EventType, RowsReader<never>]>) {
      const known = this.readers.get(type);
      if (known && known !== reader) throw new Error(`${type}: its rows already have a reader`);
      this.readers.set(type, reader);
    }
  }

  /** The event types with rows that no module registered a reader for (a wiring mistake). */
  missing(): EventType[] {
    return (Object.keys(EVENT_PAYLOADS) as EventType[]).filter(
      (type) => !isRowless(type) && !this.readers.has(type),
    );
  }

  /**
   * The event with its rows read back from the database, as a live writer would have emitted
   * it; null when what it is about is gone (a comment deleted since: nothing left to fan out).
   * Throws for an event type with rows and no reader: recovery fails loudly, the row stays.
   */
  async withRowsReadBack<Type extends EventType>(
    db: Executor,
    event: { type: Type; actorId: number | null; payload: EventPayload<Type>; eventId: number },
  ): Promise<DomainEvent | null> {
    if (isRowless(event.type)) return { ...event, rows: undefined } as unknown as DomainEvent;
    const reader = this.readers.get(event.type) as RowsReader<Type> | undefined;
    if (!reader) throw new Error(`${event.type}: no module registered how its rows are read back`);
    const rows = await reader(db, event.payload);
    if (rows === null) return null;
    return { ...event, rows } as unknown as DomainEvent;
  }
}
