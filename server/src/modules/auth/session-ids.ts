import { SESSION_CACHE_MAX } from '@margins/common';
import { defineCache } from '../../lib/cache/cache.ts';
import { sessionIdOfCookie } from './sessions.ts';

type Unsign = (value: string) => { valid: boolean; value: string | null };

const sessionIdsOfCookies = defineCache<string>({
  name: 'session_ids',
  dependsOn: { immutable: 'a pure function of the cookie and the app’s secret (one per app)' },
  limit: { entries: SESSION_CACHE_MAX },
});

/**
 * The session id of a signed session cookie, remembered: checking the signature (an HMAC) and
 * hashing the token cost more than the rest of a cached answer's session lookup. The id is a
 * pure function of the cookie and this app's secret, so a remembered one is never stale; whether
 * the session is still live is decided afresh on every request (usersOfSessions, through the
 * session cache). Only cookies with a valid signature are kept — nobody without the secret can
 * fill it — and at most SESSION_CACHE_MAX of them, the longest-held first out. One per app (one
 * secret).
 */
export class SessionIds {
  private readonly ids = sessionIdsOfCookies.of({ db: this });

  constructor(private readonly unsign: Unsign) {}

  /** The session id of this cookie value, or null for a missing or badly signed one. */
  of(cookieValue: string | undefined): string | null {
    if (!cookieValue) return null;
    const known = this.ids.peek(cookieValue);
    if (known !== undefined) return known;
    const epoch = this.ids.mark();
    const id = sessionIdOfCookie(this.unsign, cookieValue);
    if (id === null) return null;
    this.ids.set(epoch, cookieValue, id);
    return id;
  }
}
