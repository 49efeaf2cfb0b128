import { signerFactory } from '@fastify/cookie';
import { describe, expect, it } from 'vitest';
import { SESSION_CACHE_MAX } from '@margins/common';
import { hashToken } from '../../lib/tokens.ts';
import { SessionIds } from './session-ids.ts';

// The real signer of @fastify/cookie, as the app's unsignCookie uses it.
const signer = signerFactory('a-test-secret-that-is-long-enough-for-it');
const counted = () => {
  const calls = { count: 0 };
  const unsign = (value: string) => {
    calls.count++;
    return signer.unsign(value);
  };
  return { calls, ids: new SessionIds(unsign) };
};

describe('session ids of cookies', () => {
  it('is the hash of the signed token, checked once per cookie value', () => {
    const { calls, ids } = counted();
    const cookie = signer.sign('token-one');
    expect(ids.of(cookie)).toBe(hashToken('token-one'));
    expect(ids.of(cookie)).toBe(hashToken('token-one'));
    expect(calls.count).toBe(1);
  });

  it('refuses a missing, forged or tampered cookie every time, and keeps none of them', () => {
    const { calls, ids } = counted();
    const forged = signerFactory('another-secret-another-secret-another').sign('token-two');
    const tampered = signer.sign('token-two').replace('token-two', 'token-six');
    expect(ids.of(undefined)).toBeNull();
    expect(ids.of('')).toBeNull();
    for (let i = 0; i < 2; i++) {
      expect(ids.of(forged)).toBeNull();
      expect(ids.of(tampered)).toBeNull();
      expect(ids.of('token-two')).toBeNull();
    }
    expect(calls.count).toBe(6);
  });

  it('keeps at most SESSION_CACHE_MAX cookies, the longest-held first out', () => {
    const { calls, ids } = counted();
    const first = signer.sign('token-0');
    for (let i = 0; i <= SESSION_CACHE_MAX; i++) ids.of(signer.sign(`token-${i}`));
    expect(calls.count).toBe(SESSION_CACHE_MAX + 1);
    // The first was let go: checked again (and still right).
    expect(ids.of(first)).toBe(hashToken('token-0'));
    expect(calls.count).toBe(SESSION_CACHE_MAX + 2);
  });
});
