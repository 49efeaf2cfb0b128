import type { ReactElement } from 'react';
import type { AdminMeta } from './admin-types.ts';
import { ReportQueue } from './report-queue.tsx';

/**
 * The screens of the views that sections declare (`views` in _meta), by `section/view`. A view
 * the UI has no screen for is left out of the menu.
 */
const VIEW_SCREENS: Record<string, () => ReactElement> = {
  'moderation-report/queue': ReportQueue,
};

export interface SectionViewScreen {
  /** The path under /admin/. */
  path: string;
  label: string;
  Screen: () => ReactElement;
}

/** The declared views the caller may use and the UI can show, in menu order. */
export function sectionViewScreens(meta: AdminMeta): SectionViewScreen[] {
  return meta.sections.flatMap((section) =>
    section.views.flatMap((view) => {
      const Screen = VIEW_SCREENS[`${section.name}/${view.name}`];
      return Screen
        ? [{ path: `/${section.name}/views/${view.name}`, label: view.label, Screen }]
        : [];
    }),
  );
}
