import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

/**
 * Lets this answer's page add the <style> elements that carry a fresh nonce, and returns
 * the nonce (the admin page hands it to Emotion, through its page configuration).
 *
 * Why: react-admin's Material UI styles itself at run time with Emotion, which writes
 * <style> elements; the app's CSP (plugins/security-headers.ts) allows no inline style. Only
 * the admin page, which only staff can load, gets this, and only for styles: scripts stay
 * 'self' only, and a style element without the nonce is still refused.
 */
export function allowAdminPageStyles(reply: FastifyReply): string {
  const nonce = randomBytes(18).toString('base64');
  const policy = String(reply.getHeader('content-security-policy') ?? '');
  const widened = policy.replace(
    /(^|;\s*)style-src ([^;]*)/,
    (_match, start: string, sources: string) => `${start}style-src ${sources} 'nonce-${nonce}'`,
  );
  reply.header('content-security-policy', widened);
  return nonce;
}
