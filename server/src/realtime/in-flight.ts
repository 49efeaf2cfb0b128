/**
 * The socket events this process is still answering. A drain closes the sockets only once they
 * are answered (or after a bound): a comment saved while its process stops still gets its ack,
 * instead of being saved without the writer knowing.
 */
export class EventsInFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  /** Counts `work` until it settles. */
  track(work: Promise<unknown>): void {
    this.count += 1;
    void work.finally(() => {
      this.count -= 1;
      if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves when no event is being answered, or after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
