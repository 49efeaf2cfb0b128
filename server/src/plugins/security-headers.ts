import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

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
const PERMISSIONS_POLICY = [
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
function servedOverHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

/** Cookies are `Secure` when this request came over HTTPS or the site's address is https. */
export function secureCookies(request: FastifyRequest): boolean {
  return servedOverHttps(request) || request.server.ctx.config.publicUrl.startsWith('https:');
}

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
  // A site served over plain http must not tell the browser to insist on https: set below.
  strictTransportSecurity: false,
  xFrameOptions: { action: 'deny' },
  // Our own links keep their path (a reader's way back); other sites learn nothing.
  referrerPolicy: { policy: 'same-origin' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets with our options, worked out once: they are the same for every
 * request (no nonces: see CONTENT_SECURITY_POLICY). @fastify/helmet built helmet's middleware
 * anew on every request (parsing the CSP each time); this keeps helmet's defaults and
 * spelling, at the cost of setting a few headers.
 */
function helmetHeaders(): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  const response = {
    setHeader: (name: string, value: string | number) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  } as unknown as ServerResponse;
  helmet(HELMET_OPTIONS)({} as IncomingMessage, response, () => undefined);
  return headers;
}

/** CSP, framing, referrer, permissions, no sniffing; HSTS only on a request over HTTPS. */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = [...helmetHeaders(), ['permissions-policy', PERMISSIONS_POLICY] as const];
  // On the raw response, as helmet did: every answer has them, an error or a 404 included.
  app.addHook('onRequest', (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of headers) raw.setHeader(name, value);
    if (servedOverHttps(request))
      raw.setHeader('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
}
