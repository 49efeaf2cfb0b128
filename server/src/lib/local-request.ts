import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** Headers a proxy adds: a request carrying one came from elsewhere, whatever its socket says. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Whether a request was made on this machine (the development mailbox, the metrics). Decided
 * from the socket's own remote address, never from X-Forwarded-For (TRUST_PROXY makes request.ip
 * believe it); a request that came through a proxy, even one on this machine, is not, since the
 * proxy may be forwarding anyone on the network.
 */
export function isFromThisMachine(request: FastifyRequest): boolean {
  if (PROXY_HEADERS.some((header) => request.headers[header] !== undefined)) return false;
  return isLoopbackAddress(request.socket.remoteAddress);
}

/** 127.0.0.0/8, ::1 and 127.x written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  if (isIP(ipv4) === 4) return ipv4.startsWith('127.');
  return address === '::1';
}
