import { Button, useListContext, useResourceContext } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import type { ExportType } from './admin-types.ts';
import { exportUrl } from './data-provider.ts';

/** A download arrow: react-admin shows only the icon of a button on a phone. */
function DownloadIcon() {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M5 20h14v-2H5v2zm7-3 6-6-1.4-1.4-3.6 3.6V4h-2v9.2L7.4 9.6 6 11l6 6z"
      />
    </svg>
  );
}

/**
 * One link per export type of the section: the server streams the file of the list as it
 * is filtered, searched and sorted now, and the browser downloads it (no rows pass
 * through this page).
 */
export function ExportButtons({ types }: { types: ExportType[] }) {
  const resource = useResourceContext() ?? '';
  const { filterValues, sort } = useListContext();
  return (
    <>
      {types.map((type) => (
        <Button
          key={type}
          component="a"
          href={exportUrl(resource, type, { filter: filterValues, sort })}
          download
          label={ADMIN_UI_MESSAGES.exportLabel(type)}
        >
          <DownloadIcon />
        </Button>
      ))}
    </>
  );
}
