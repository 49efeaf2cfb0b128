import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { webDist } from '../../paths.ts';

/**
 * The source module of each page the web app loads on demand (web/src/pages/index.ts; a
 * test keeps the two lists equal). Pages not listed here are in the main chunk.
 */
export const PAGE_SOURCES: Readonly<Record<string, string>> = {
  ourthing: 'src/pages/info/our-thing.tsx',
  terms: 'src/pages/info/terms.tsx',
  privacy: 'src/pages/info/privacy.tsx',
  membercontent: 'src/pages/info/member-content.tsx',
  contact: 'src/pages/contact.tsx',
  signup: 'src/pages/auth/signup.tsx',
  login: 'src/pages/auth/login.tsx',
  'login-link': 'src/pages/auth/login-link.tsx',
  logout: 'src/pages/auth/logout.tsx',
  verify: 'src/pages/auth/verify.tsx',
  'auth-callback': 'src/pages/auth/auth-callback.tsx',
  'complete-signup': 'src/pages/auth/complete-signup.tsx',
  'invite-landing': 'src/pages/auth/invite-landing.tsx',
  'current-profile': 'src/pages/profile/current-profile.tsx',
  'public-profile': 'src/pages/profile/public-profile.tsx',
  'dev-mail': 'src/pages/dev-mail.tsx',
  dashboard: 'src/pages/manuscripts/dashboard-page.tsx',
  upload: 'src/pages/manuscripts/upload-page.tsx',
  reader: 'src/pages/manuscripts/reader/reader-page.tsx',
  share: 'src/pages/access/share-landing.tsx',
  'm-survey-answers': 'src/pages/access/survey-answers-page.tsx',
  discover: 'src/pages/discover/discover-page.tsx',
  admin: 'src/pages/admin/admin-page.tsx',
  products: 'src/pages/payments/pricing-page.tsx',
  'local-checkout': 'src/pages/payments/local-checkout-page.tsx',
  'payment-thanks': 'src/pages/payments/thanks-page.tsx',
  unsubscribe: 'src/pages/info/unsubscribe.tsx',
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

let cached: Manifest | null = null;

function manifest(): Manifest {
  if (cached && process.env.NODE_ENV === 'production') return cached;
  const file = path.join(webDist, '.vite', 'manifest.json');
  cached = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Manifest) : {};
  return cached;
}

/**
 * The fonts a page's first paint is set in, by page: the reader's server-rendered first screen
 * (first-screen.ts) is Literata, upright and italic (a manuscript's emphasis), with the app's
 * Inter in its header lines. Preloaded, they arrive with the stylesheet rather than when the
 * first layout finds them: text whose font is still loading paints invisible, and Chromium then
 * took no "largest contentful paint" for the first screen at all, only for the app's copy of
 * it, half a second later (issue 18). Latin only: the subsets the demo and most manuscripts
 * use; the others load on demand (unicode-range) as before.
 */
const PAGE_FONTS: Readonly<Record<string, readonly string[]>> = {
  reader: [
    '../node_modules/@fontsource-variable/literata/files/literata-latin-wght-normal.woff2',
    '../node_modules/@fontsource-variable/literata/files/literata-latin-wght-italic.woff2',
    '../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2',
  ],
};

/** The page's preloads, in the two places of the head they go (render.ts). */
interface PagePreloads {
  /**
   * What the first paint needs: the page's fonts and stylesheets. First in the head, before
   * the theme script and the main chunk: on HTTP/1.1 (six connections a host) they would
   * otherwise queue behind the ~30 module requests, and the first words would paint late and
   * in a fallback font (issue 18).
   */
  render: string;
  /** The page's chunk and the chunks it imports, fetched in parallel with the main one. */
  modules: string;
}

/**
 * `<link>` tags that fetch the chunk of `page` (and the chunks and styles it imports) in
 * parallel with the main chunk, so a document load does not wait for the main chunk before
 * it asks for the page's. Empty when the app is not built or the page is in the main chunk.
 */
export function preloadTags(page: string): PagePreloads {
  const source = PAGE_SOURCES[page];
  const chunks = manifest();
  if (!source || !chunks[source]) return { render: '', modules: '' };
  const entry = chunks['index.html'];
  const loaded = new Set<string>(['index.html', ...(entry?.imports ?? [])]);
  const files = new Set<string>();
  const styles = new Set<string>();
  const visit = (key: string) => {
    if (loaded.has(key)) return;
    loaded.add(key);
    const chunk = chunks[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const style of chunk.css ?? []) styles.add(style);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(source);
  const render: string[] = [];
  for (const font of PAGE_FONTS[page] ?? []) {
    const file = chunks[font]?.file;
    // Fonts are fetched in CORS mode: a preload without `crossorigin` would not be used.
    if (file)
      render.push(`<link rel="preload" href="/${file}" as="font" type="font/woff2" crossorigin>`);
  }
  for (const file of styles) render.push(`<link rel="stylesheet" href="/${file}">`);
  const modules = [...files].map((file) => `<link rel="modulepreload" href="/${file}">`);
  return { render: render.join(''), modules: modules.join('') };
}
