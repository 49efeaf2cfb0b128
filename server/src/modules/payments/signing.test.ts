import { describe, expect, it } from 'vitest';
import { signOffer, verifyOffer, type Offer } from './signing.ts';

const SECRET = 'a-session-secret-for-the-signing-test';
const offerFor = (id: number): Offer => ({
  tipType: 'manuscript',
  tipFor: String(id),
  nextUrl: `/manuscript/${id}`,
});
/** An offer whose signature has both characters the standard alphabet spells otherwise. */
let firstWithBoth = 1;
while (!/-.*_|_.*-/.test(signOffer(SECRET, offerFor(firstWithBoth)))) firstWithBoth += 1;
const OFFER = offerFor(firstWithBoth);
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Spellings of the same 32 bytes that a lenient base64 decoder (Node's) reads back as the
 * signature: only the canonical one may pass.
 */
function otherSpellings(sig: string): Record<string, string> {
  const last = BASE64URL.indexOf(sig.at(-1)!);
  // 32 bytes are 43 characters: the last one carries 2 bits the decoder drops.
  const spareBits = [1, 2, 3].map((bits) => sig.slice(0, -1) + BASE64URL[last ^ bits]);
  const standard = sig.replaceAll('-', '+').replaceAll('_', '/');
  return {
    'padding added': `${sig}=`,
    'double padding': `${sig}==`,
    'standard alphabet': standard,
    'standard alphabet, padded': `${standard}=`,
    'a line break inside': `${sig.slice(0, 20)}\n${sig.slice(20)}`,
    'a space at the end': `${sig} `,
    'a character the decoder skips': `${sig.slice(0, 10)}.${sig.slice(10)}`,
    'trailing junk after padding': `${sig}=AAAA`,
    ...Object.fromEntries(
      spareBits.map((spelling, index) => [`spare bits ${index + 1}`, spelling]),
    ),
  };
}

describe('checkout offer signature', () => {
  const sig = signOffer(SECRET, OFFER);

  it('accepts its own canonical base64url', () => {
    expect(sig).toMatch(/^[\w-]{43}$/);
    expect(verifyOffer(SECRET, OFFER, sig)).toBe(true);
  });

  it('refuses every other spelling of the same bytes', () => {
    const spellings = otherSpellings(sig);
    // Each decodes to the signature's bytes: the lenient comparison let them all through.
    for (const [name, spelling] of Object.entries(spellings)) {
      const decoded = Buffer.from(spelling, 'base64url').subarray(0, 32).toString('base64url');
      expect(decoded, name).toBe(sig);
      expect(verifyOffer(SECRET, OFFER, spelling), name).toBe(false);
    }
  });

  it('refuses another offer, another secret, and what is not a signature', () => {
    expect(verifyOffer(SECRET, { ...OFFER, tipFor: `${OFFER.tipFor}0` }, sig)).toBe(false);
    expect(verifyOffer('another-secret', OFFER, sig)).toBe(false);
    for (const bad of ['', 'x', sig.slice(0, -1), `${sig}A`, 'é'.repeat(43), '\u0000'.repeat(43)]) {
      expect(verifyOffer(SECRET, OFFER, bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
