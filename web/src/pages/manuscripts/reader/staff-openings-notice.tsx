import { z } from 'zod';
import { MODERATION_MESSAGES, staffOpening } from '@margins/common';
import { formatDate } from '../../../lib/dates.ts';
import { usePageConfig } from '../../../page-config.ts';

const openingsOf = z.object({ staff_openings: z.array(staffOpening) });

/**
 * The author's side of the staff reading rule: each time a moderator opened this (otherwise
 * private) manuscript while reviewing a report, one line says when. Nothing for anyone else
 * (the server sends the list to the author alone).
 */
export function StaffOpeningsNotice() {
  const { data } = usePageConfig();
  const parsed = openingsOf.safeParse(data);
  const openings = parsed.success ? parsed.data.staff_openings : [];
  if (openings.length === 0) return null;
  return (
    <aside
      className="my-4 rounded-md border border-line bg-surface px-4 py-3 text-sm text-muted"
      aria-label="Moderator openings"
      data-staff-openings
    >
      <ul className="space-y-1">
        {openings.map((opening) => (
          <li key={opening.opened}>
            {MODERATION_MESSAGES.staffOpened(formatDate(opening.opened))}
          </li>
        ))}
      </ul>
    </aside>
  );
}
