import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * The Content-Security-Policy of every response. No inline script or style anywhere: the page
 * configuration is inert JSON (`type="application/json"`), the theme script is a file, Vite
 * emits files only, React sets `style` through the CSSOM (which CSP allows), and a converted
 * manuscript carries no attributes but the few the normaliser sets (no `style`).
 */
const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  baseUri: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  // 'self' covers the socket's ws:/wss: to this same host.
  connectSrc: ["'self'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  frameSrc: ["'none'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
};

/** Browser features the app never uses, refused to this page and anything it could embed. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/** One year, as the HSTS preload list asks. */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * True when the browser reached us over HTTPS: directly, or through a proxy trusted by
 * TRUST_PROXY that says so in X-Forwarded-Proto (Fastify's request.protocol).
 */
export function servedOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Cookies are `Secure` when this request came over HTTPS or the site's address is https. */
export function secureCookies(request: FastifyRequest): boolean {
  return servedOverHttps(request) || request.server.ctx.config.publicUrl.startsWith('https:');
}

/** CSP, framing, referrer, permissions, no sniffing; HSTS only on a request over HTTPS. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
    // A site served over plain http must not tell the browser to insist on https: set below.
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    // Our own links keep their path (a reader's way back); other sites learn nothing.
    referrerPolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (servedOverHttps(request))
      reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  });
}
