import { Suspense, type ReactNode } from 'react';
import { NavLink } from 'react-router';
import { useBasename, useCreatePath } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import { useAdminSetup } from './admin-meta.ts';

/**
 * The admin area inside the app's own header and footer (one <main>, one banner): a list
 * of the caller's sections (a sidebar on wide screens, a scrolling row on a phone) and
 * the screen, whose title react-admin puts into the heading.
 */
export function AdminLayout({ children }: { children?: ReactNode }) {
  const { meta, views } = useAdminSetup();
  const createPath = useCreatePath();
  const basename = useBasename();
  return (
    <div className="admin-shell" data-role={meta.role}>
      <nav aria-label={ADMIN_UI_MESSAGES.sectionsNav} className="admin-nav">
        <ul>
          <li>
            <NavLink to={basename || '/'} end>
              Dashboard
            </NavLink>
          </li>
          {views.map((view) => (
            <li key={view.path}>
              <NavLink to={`${basename}${view.path}`}>{view.label}</NavLink>
            </li>
          ))}
          {meta.sections.map((section) => (
            <li key={section.name}>
              <NavLink to={createPath({ resource: section.name, type: 'list' })}>
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-content">
        <h1 id="react-admin-title" className="admin-title" />
        <Suspense fallback={<div aria-busy="true" className="min-h-[40vh]" />}>{children}</Suspense>
      </div>
    </div>
  );
}
