import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Whether a request may read the development mailbox: only one made on this machine. Decided
 * from the socket's own remote address, never from X-Forwarded-For (TRUST_PROXY makes
 * request.ip believe it); a request that came through a proxy, even one on this machine, is
 * refused, since the proxy may be forwarding anyone on the network.
 */
export function canReadDevMail(request: FastifyRequest): boolean {
  if (request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) {
    return false;
  }
  return isLoopbackAddress(request.socket.remoteAddress);
}

/** 127.0.0.0/8, ::1 and 127.x written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(ipv4) === 4) return ipv4.startsWith('127.');
  return address === '::1';
}
