import type { AppContext, UserRow } from '../context.ts';
import { sessionCacheOf } from '../modules/auth/session-cache.ts';
import { usersOfSessions } from '../modules/auth/sessions.ts';

/** At most this many session ids in one query. */
const BATCH_MAX = 500;

/**
 * The sockets' session lookups (handshakes and every event), batched: ids asked while a lookup
 * is under way wait for it to end and go together in the next one (one query for a storm of
 * arrivals, or for the events of a busy room read in one turn, instead of one each). A session
 * the session cache holds is answered from it at once, without waiting for a batch: the cache
 * forgets a session or user on any change to them (session-cache.ts), so a logged-out, revoked
 * or suspended user is refused on the next event as before.
 */
export class SessionBatch {
  private queue: Array<{
    id: string;
    resolve: (user: UserRow | null) => void;
    reject: (error: unknown) => void;
  }> = [];
  private running = false;

  constructor(private readonly ctx: AppContext) {}

  userOf(sessionId: string): Promise<UserRow | null> {
    const cached = sessionCacheOf(this.ctx).get(sessionId);
    if (cached) return Promise.resolve(cached);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: sessionId, resolve, reject });
      if (!this.running) {
        this.running = true;
        setImmediate(() => void this.run());
      }
    });
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, BATCH_MAX);
      try {
        const users = await usersOfSessions(this.ctx, [...new Set(batch.map((entry) => entry.id))]);
        for (const entry of batch) entry.resolve(users.get(entry.id) ?? null);
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.running = false;
  }
}
