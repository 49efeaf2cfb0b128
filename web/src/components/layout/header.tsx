import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { api } from '../../api/client.ts';
import { usePageConfig } from '../../page-config.ts';
import { useFlash } from '../feedback/feedback.tsx';
import { AppLink } from './app-link.tsx';
import { ThemeSwitcher } from './theme-switcher.tsx';
import { Wordmark } from './wordmark.tsx';

interface NavItem {
  to: string;
  label: string;
  primary?: boolean;
}

function navItemsFor(loginState: string, productsEnabled = false): NavItem[] {
  // The pricing CTA exists only with productsEnabled (SPEC §6).
  const pricing: NavItem[] = productsEnabled ? [{ to: '/products/', label: 'Pricing' }] : [];
  if (loginState === 'logged_in') {
    return [
      { to: '/discover/', label: 'Discover' },
      { to: '/dashboard', label: 'Dashboard' },
      ...pricing,
      { to: '/profile/', label: 'Profile' },
    ];
  }
  if (loginState === 'incomplete') {
    return [{ to: '/auth/complete/signup', label: 'Finish signing up', primary: true }];
  }
  return [
    { to: '/discover/', label: 'Discover' },
    { to: '/ourthing', label: 'Our thing' },
    ...pricing,
    { to: '/auth/login', label: 'Log in' },
    { to: '/auth/signup', label: 'Sign up', primary: true },
  ];
}

function isCurrent(pathname: string, to: string): boolean {
  const target = to.replace(/\/$/, '') || '/';
  const here = pathname.replace(/\/$/, '') || '/';
  return target === '/' ? here === '/' : here === target || here.startsWith(`${target}/`);
}

/** Logs out (POST /auth/logout) and goes home with a fresh page. */
function useLogout(): () => Promise<void> {
  const flash = useFlash();
  return async () => {
    try {
      await api.post('/auth/logout');
      window.location.assign('/');
    } catch {
      flash('We could not log you out. Reload the page and try again.');
    }
  };
}

/** The site header: wordmark, navigation, theme switcher and log out; a menu on phones. */
export function Header() {
  const config = usePageConfig();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const logout = useLogout();
  const loggedIn = config.loginState !== 'anonymous';
  const items = navItemsFor(config.loginState, config.productsEnabled);

  useEffect(() => setMenuOpen(false), [pathname]);

  const linkClass = (item: NavItem) =>
    item.primary
      ? 'btn btn-primary'
      : `btn btn-ghost ${isCurrent(pathname, item.to) ? 'text-accent' : ''}`;

  return (
    <header className="sticky top-0 z-30 border-b border-line/80 bg-page/[0.97] backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <AppLink to="/" className="rounded-md no-underline" aria-label="Margins home">
          <Wordmark />
        </AppLink>

        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <AppLink
              key={item.to}
              to={item.to}
              className={linkClass(item)}
              aria-current={isCurrent(pathname, item.to) ? 'page' : undefined}
            >
              {item.label}
            </AppLink>
          ))}
          <ThemeSwitcher className="ml-2" />
          {loggedIn && (
            <button type="button" className="btn btn-secondary ml-2" onClick={() => void logout()}>
              Log out
            </button>
          )}
        </nav>

        <button
          type="button"
          className="btn btn-secondary px-3 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            {menuOpen ? (
              <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7 1.1-1.1Z" />
            ) : (
              <path d="M3 5h14v1.6H3V5Zm0 4.2h14v1.6H3V9.2Zm0 4.2h14V15H3v-1.6Z" />
            )}
          </svg>
          Menu
        </button>
      </div>

      <nav
        id="mobile-menu"
        aria-label="Main"
        hidden={!menuOpen}
        className="border-t border-line bg-page px-4 pt-3 pb-5 md:hidden"
      >
        <ul className="flex flex-col gap-1">
          {items.map((item) => (
            <li key={item.to}>
              <AppLink
                to={item.to}
                className={`${linkClass(item)} w-full justify-start ${item.primary ? 'justify-center' : ''}`}
                aria-current={isCurrent(pathname, item.to) ? 'page' : undefined}
              >
                {item.label}
              </AppLink>
            </li>
          ))}
        </ul>
        <div className="mt-4 flex items-center justify-between gap-3 border-t border-line pt-4">
          <ThemeSwitcher />
          {loggedIn && (
            <button type="button" className="btn btn-secondary" onClick={() => void logout()}>
              Log out
            </button>
          )}
        </div>
      </nav>
    </header>
  );
}
