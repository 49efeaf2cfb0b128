import type { ReactNode } from 'react';
import { CookieNotice } from '../cookie-notice.tsx';
import { VerifyEmailBanner } from '../verify-email-banner.tsx';
import { Footer } from './footer.tsx';
import { MaintenanceNotice } from './maintenance-notice.tsx';
import { Header } from './header.tsx';

/** The app shell: skip link, header, the page's <main data-page>, footer and cookie notice. */
export function Layout({ page, children }: { page: string; children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-surface px-4 py-2 font-semibold focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header />
      <MaintenanceNotice />
      <VerifyEmailBanner />
      <main id="main" tabIndex={-1} data-page={page} className="flex-1 focus:outline-none">
        {children}
      </main>
      <Footer />
      <CookieNotice />
    </div>
  );
}
