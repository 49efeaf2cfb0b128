import { lazy, type ComponentType } from 'react';
import { HomePage } from './home.tsx';
import { NotFoundPage } from './not-found.tsx';

/**
 * A page loaded on demand: each page is its own chunk, so the landing page loads no socket
 * client and no survey editor. The server preloads the chunk of the page it renders
 * (`<link rel="modulepreload">`, from Vite's manifest), so a document load does not wait
 * for the main chunk before asking for the page's.
 */
function page<Module>(
  load: () => Promise<Module>,
  pick: (module: Module) => ComponentType,
): ComponentType {
  return lazy(async () => ({ default: pick(await load()) }));
}

/** config.page → the component that shows it. Pages of later issues are not here yet. */
export const PAGES: Record<string, ComponentType> = {
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
