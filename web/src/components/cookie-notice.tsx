import { useState } from 'react';
import { COOKIE_ACCEPT_KEY } from '@margins/common';

function isAccepted(): boolean {
  try {
    return Boolean(window.localStorage.getItem(COOKIE_ACCEPT_KEY));
  } catch {
    return false;
  }
}

/** The cookie notice: shown until "Got It" sets the local cookie-accept flag; never hides by itself. */
export function CookieNotice() {
  const [accepted, setAccepted] = useState(isAccepted);
  if (accepted) return null;

  const handleAccept = () => {
    try {
      window.localStorage.setItem(COOKIE_ACCEPT_KEY, 'true');
    } catch {
      // Storage blocked: hide it for this page view at least.
    }
    setAccepted(true);
  };

  return (
    <section
      aria-label="Cookie notice"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-2xl flex-col gap-3 rounded-2xl border border-line bg-surface p-4 text-sm shadow-lift sm:flex-row sm:items-center sm:gap-5 sm:p-5"
    >
      <p className="flex-1 text-muted">
        <span className="font-semibold text-ink">A word about cookies.</span> Margins uses a few
        cookies to keep you signed in and to protect your forms. No advertising, no tracking.{' '}
        <a href="/privacy">Read our privacy notice</a>.
      </p>
      <button type="button" className="btn btn-primary shrink-0" onClick={handleAccept}>
        Got It
      </button>
    </section>
  );
}
