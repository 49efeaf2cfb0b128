import { usePageConfig } from '../../page-config.ts';

/** The maintenance notice an admin switched on (feature "maintenance"), on every page. */
export function MaintenanceNotice() {
  const { maintenanceNotice } = usePageConfig();
  if (!maintenanceNotice) return null;
  return (
    <div
      role="status"
      className="border-b border-line bg-accent-soft px-4 py-2 text-center text-sm font-medium text-ink"
      data-maintenance-notice
    >
      {maintenanceNotice}
    </div>
  );
}
