import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TipType } from '@margins/common/payments-constants';

/** What a page offers to pay for, and where the payer comes back: signed by the server. */
export interface Offer {
  tipType: TipType;
  tipFor: string;
  nextUrl: string;
}

function digest(secret: string, offer: Offer): Buffer {
  return createHmac('sha256', secret)
    .update(`margins-checkout\n${offer.tipType}\n${offer.tipFor}\n${offer.nextUrl}`)
    .digest();
}

/**
 * The `sig` of SPEC §7's checkout payloads: a client cannot tip another target than the page
 * offered, nor send the payer somewhere else afterwards, without the server's secret.
 */
export function signOffer(secret: string, offer: Offer): string {
  return digest(secret, offer).toString('base64url');
}

/**
 * Is `sig` the signature of this offer, in its one canonical spelling? Compared as text, in
 * constant time: a base64 decoder also reads padding, the standard alphabet, skipped
 * characters and a last character's spare bits as the same bytes.
 */
export function verifyOffer(secret: string, offer: Offer, sig: string): boolean {
  const expected = Buffer.from(signOffer(secret, offer));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The path of nextUrl when it is a page of this site (a path, or an absolute URL on our own
 * origin), else null: a payer is never sent to another site after paying.
 */
export function ownPath(nextUrl: string, ownOrigin: string): string | null {
  if (!nextUrl) return null;
  if (/[\\\s]/.test(nextUrl)) return null;
  let url: URL;
  try {
    url = new URL(nextUrl, ownOrigin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(ownOrigin).origin) return null;
  if (nextUrl.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
