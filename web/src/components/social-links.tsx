import type { SocialField } from '@margins/common';
import { socialLinksOf } from '../lib/social.ts';

/** A user's social links; discord (and addresses without a safe URL) are shown as text. */
export function SocialLinks({
  user,
  columns = 'auto',
}: {
  user: Partial<Record<SocialField, string | null>>;
  /** 3: exactly three per row (the author popup); auto: as many as fit. */
  columns?: 3 | 'auto';
}) {
  const links = socialLinksOf(user);
  if (links.length === 0) return null;
  const grid = columns === 3 ? 'grid-cols-3' : 'grid-cols-1 min-[420px]:grid-cols-2 md:grid-cols-3';
  return (
    <ul className={`grid gap-2 ${grid}`} data-testid="social-links">
      {links.map((link) => (
        <li key={link.field} className="min-w-0">
          <div className="rounded-lg border border-line bg-page/60 px-3 py-2">
            <span className="block text-[0.68rem] font-semibold tracking-wider text-muted uppercase">
              {link.label}
            </span>
            {link.href ? (
              <a
                href={link.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="block truncate text-sm"
                data-social={link.field}
              >
                {link.text}
              </a>
            ) : (
              <span className="block truncate text-sm text-ink" data-social={link.field}>
                {link.text}
              </span>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}
