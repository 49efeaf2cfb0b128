const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The href to keep for a link, or null to unwrap it. Only absolute http, https and mailto URLs
 * pass; browsers ignore tabs and newlines anywhere in a URL ("java\tscript:"), so those are
 * removed before judging.
 */
export function safeLinkHref(href: string | undefined): string | null {
  if (href === undefined) return null;
  // What the URL standard does first: trim C0 controls and spaces, drop tabs and newlines.
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const cleaned = href.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  // eslint-disable-next-line no-control-regex -- control characters are what is being refused
  if (/[\u0000-\u001f\u007f]/.test(cleaned)) return null;
  if (!/^(?:https?:\/\/|mailto:)/i.test(cleaned)) return null;
  let url: URL;
  try {
    url = new URL(cleaned);
  } catch {
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol)) return null;
  if (url.protocol !== 'mailto:' && url.hostname === '') return null;
  return url.href;
}
