import { AppLink } from './app-link.tsx';
import { Wordmark } from './wordmark.tsx';

const LINKS = [
  { to: '/terms', label: 'Terms' },
  { to: '/privacy', label: 'Privacy' },
  { to: '/contact', label: 'Contact' },
  { to: '/membercontent', label: 'Member content' },
];

/**
 * The site footer: the legal pages, contact and member content. Opaque and above the page's
 * fixed boxes (the reader's contents column), which it covers as it scrolls up over them.
 */
export function Footer() {
  return (
    <footer className="relative z-20 mt-20 border-t border-line bg-page bg-linear-to-b from-sunken/60 to-sunken/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div>
          <Wordmark />
          <p className="mt-2 max-w-xs font-serif text-sm text-muted italic">
            Where manuscripts meet their first readers.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {LINKS.map((link) => (
              <li key={link.to}>
                <AppLink
                  to={link.to}
                  className="text-muted no-underline hover:text-ink hover:underline"
                >
                  {link.label}
                </AppLink>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-xs text-muted sm:text-right">
            © {new Date().getFullYear()} Margins
          </p>
        </nav>
      </div>
    </footer>
  );
}
