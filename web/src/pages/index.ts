import { createElement, lazy, useState, type ComponentType } from 'react';
import { HomePage } from './home.tsx';
import { NotFoundPage } from './not-found.tsx';

/** The loaders of the pages that are chunks of their own, by component. */
const loaders = new WeakMap<ComponentType, () => Promise<unknown>>();

/**
 * A page loaded on demand: each page is its own chunk, so the landing page loads no socket
 * client and no survey editor. The server preloads the chunk of the page it renders
 * (`<link rel="modulepreload">`, from Vite's manifest), so a document load does not wait
 * for the main chunk before asking for the page's; and the app's first render waits for it
 * (`preloadPage`), so it renders the page itself. A lazy page renders a Suspense fallback
 * first, even when its chunk is in already, and React holds the page back after a fallback
 * for ~300 ms: the reader's server-rendered first screen was blank meanwhile, and the text
 * was asked for only after it (issue 18).
 */
function page<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): ComponentType {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const fetchPage = () => (loading ??= load().then((module) => (loaded = pick(module))));
  const Lazy = lazy(async () => ({ default: await fetchPage() }));
  function Page() {
    // Chosen once per mount: switching from the lazy wrapper to the page would remount it.
    const [Shown] = useState<ComponentType>(() => loaded ?? Lazy);
    return createElement(Shown);
  }
  loaders.set(Page, fetchPage);
  return Page;
}

/**
 * Loads the chunk of a page (at once for the pages in the main chunk). Never rejects: a chunk
 * that fails to load fails again, visibly, when the page renders.
 */
export async function preloadPage(page: string): Promise<void> {
  await loaders
    .get(pageComponent(page))?.()
    .catch(() => undefined);
}

/** config.page → the component that shows it. Pages of later issues are not here yet. */
const PAGES: Record<string, ComponentType> = {
  home: HomePage,
  ourthing: page(
    () => import('./info/our-thing.tsx'),
    (m) => m.OurThingPage,
  ),
  terms: page(
    () => import('./info/terms.tsx'),
    (m) => m.TermsPage,
  ),
  privacy: page(
    () => import('./info/privacy.tsx'),
    (m) => m.PrivacyPage,
  ),
  membercontent: page(
    () => import('./info/member-content.tsx'),
    (m) => m.MemberContentPage,
  ),
  contact: page(
    () => import('./contact.tsx'),
    (m) => m.ContactPage,
  ),
  signup: page(
    () => import('./auth/signup.tsx'),
    (m) => m.SignupPage,
  ),
  login: page(
    () => import('./auth/login.tsx'),
    (m) => m.LoginPage,
  ),
  'login-link': page(
    () => import('./auth/login-link.tsx'),
    (m) => m.LoginLinkPage,
  ),
  logout: page(
    () => import('./auth/logout.tsx'),
    (m) => m.LogoutPage,
  ),
  verify: page(
    () => import('./auth/verify.tsx'),
    (m) => m.VerifyPage,
  ),
  'auth-callback': page(
    () => import('./auth/auth-callback.tsx'),
    (m) => m.AuthCallbackPage,
  ),
  'complete-signup': page(
    () => import('./auth/complete-signup.tsx'),
    (m) => m.CompleteSignupPage,
  ),
  'invite-landing': page(
    () => import('./auth/invite-landing.tsx'),
    (m) => m.InviteLandingPage,
  ),
  'current-profile': page(
    () => import('./profile/current-profile.tsx'),
    (m) => m.CurrentProfilePage,
  ),
  'public-profile': page(
    () => import('./profile/public-profile.tsx'),
    (m) => m.PublicProfilePage,
  ),
  'dev-mail': page(
    () => import('./dev-mail.tsx'),
    (m) => m.DevMailPage,
  ),
  dashboard: page(
    () => import('./manuscripts/dashboard-page.tsx'),
    (m) => m.DashboardPage,
  ),
  upload: page(
    () => import('./manuscripts/upload-page.tsx'),
    (m) => m.UploadPage,
  ),
  reader: page(
    () => import('./manuscripts/reader/reader-page.tsx'),
    (m) => m.ReaderPage,
  ),
  share: page(
    () => import('./access/share-landing.tsx'),
    (m) => m.ShareLandingPage,
  ),
  'm-survey-answers': page(
    () => import('./access/survey-answers-page.tsx'),
    (m) => m.SurveyAnswersPage,
  ),
  discover: page(
    () => import('./discover/discover-page.tsx'),
    (m) => m.DiscoverPage,
  ),
  // Only staff reach it (everyone else gets the server's 404), so only they load react-admin.
  admin: page(
    () => import('./admin/admin-page.tsx'),
    (m) => m.AdminPage,
  ),
  products: page(
    () => import('./payments/pricing-page.tsx'),
    (m) => m.PricingPage,
  ),
  'local-checkout': page(
    () => import('./payments/local-checkout-page.tsx'),
    (m) => m.LocalCheckoutPage,
  ),
  'payment-thanks': page(
    () => import('./payments/thanks-page.tsx'),
    (m) => m.ThanksPage,
  ),
  unsubscribe: page(
    () => import('./info/unsubscribe.tsx'),
    (m) => m.UnsubscribePage,
  ),
  'not-found': NotFoundPage,
};

/** The component for a page name; the not-found page for names this build does not know. */
export function pageComponent(page: string): ComponentType {
  return PAGES[page] ?? NotFoundPage;
}
