import { describe, expect, it } from 'vitest';
import { EventsInFlight } from './in-flight.ts';

describe('EventsInFlight', () => {
  it('settles at once with nothing in flight, else when the last event is answered', async () => {
    const inFlight = new EventsInFlight();
    await inFlight.settled(10_000);
    let finish: () => void = () => undefined;
    inFlight.track(new Promise<void>((resolve) => (finish = resolve)));
    inFlight.track(Promise.resolve());
    let settled = false;
    const waiting = inFlight.settled(10_000).then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    finish();
    await waiting;
    expect(settled).toBe(true);
  });

  it('gives up waiting after its bound', async () => {
    const inFlight = new EventsInFlight();
    inFlight.track(new Promise(() => undefined));
    const started = Date.now();
    await inFlight.settled(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });
});
