import { Button, useListContext, useResourceContext } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import type { ExportType } from './admin-types.ts';
import { exportUrl } from './data-provider.ts';

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
        />
      ))}
    </>
  );
}
