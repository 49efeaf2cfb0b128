import { createHash, randomBytes } from 'node:crypto';

/** A URL-safe random token. */
export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** SHA-256 of a token, hex: what we store instead of the token. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
