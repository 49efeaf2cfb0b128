import type { ComponentType } from 'react';
import { ShareLandingPage } from './access/share-landing.tsx';
import { SurveyAnswersPage } from './access/survey-answers-page.tsx';
import { AuthCallbackPage } from './auth/auth-callback.tsx';
import { CompleteSignupPage } from './auth/complete-signup.tsx';
import { InviteLandingPage } from './auth/invite-landing.tsx';
import { LoginPage } from './auth/login.tsx';
import { LoginLinkPage } from './auth/login-link.tsx';
import { LogoutPage } from './auth/logout.tsx';
import { SignupPage } from './auth/signup.tsx';
import { VerifyPage } from './auth/verify.tsx';
import { ContactPage } from './contact.tsx';
import { DevMailPage } from './dev-mail.tsx';
import { HomePage } from './home.tsx';
import { MemberContentPage } from './info/member-content.tsx';
import { OurThingPage } from './info/our-thing.tsx';
import { PrivacyPage } from './info/privacy.tsx';
import { TermsPage } from './info/terms.tsx';
import { DashboardPage } from './manuscripts/dashboard-page.tsx';
import { ReaderPage } from './manuscripts/reader/reader-page.tsx';
import { UploadPage } from './manuscripts/upload-page.tsx';
import { NotFoundPage } from './not-found.tsx';
import { CurrentProfilePage } from './profile/current-profile.tsx';
import { PublicProfilePage } from './profile/public-profile.tsx';

/** config.page → the component that shows it. Pages of later issues are not here yet. */
export const PAGES: Record<string, ComponentType> = {
  home: HomePage,
  ourthing: OurThingPage,
  terms: TermsPage,
  privacy: PrivacyPage,
  membercontent: MemberContentPage,
  contact: ContactPage,
  signup: SignupPage,
  login: LoginPage,
  'login-link': LoginLinkPage,
  logout: LogoutPage,
  verify: VerifyPage,
  'auth-callback': AuthCallbackPage,
  'complete-signup': CompleteSignupPage,
  'invite-landing': InviteLandingPage,
  'current-profile': CurrentProfilePage,
  'public-profile': PublicProfilePage,
  'dev-mail': DevMailPage,
  dashboard: DashboardPage,
  upload: UploadPage,
  reader: ReaderPage,
  share: ShareLandingPage,
  'm-survey-answers': SurveyAnswersPage,
  'not-found': NotFoundPage,
};

/** The component for a page name; the not-found page for names this build does not know. */
export function pageComponent(page: string): ComponentType {
  return PAGES[page] ?? NotFoundPage;
}
