/** Messages of the admin area's screens (issue 14); the server's own are in messages.ts. */
export const ADMIN_UI_MESSAGES = {
  loadFailed: 'The admin area could not be loaded. Reload the page to try again.',
  noSections: 'Your role has no sections in the admin area.',
  bulkDone: (label: string, affected: number) =>
    `${label}: ${affected} ${affected === 1 ? 'item' : 'items'} changed.`,
  bulkReasonLabel: 'Reason (shown to the people concerned)',
  bulkConfirmTitle: (label: string, count: number) =>
    `${label} ${count} selected ${count === 1 ? 'item' : 'items'}?`,
  fieldSaved: (label: string) => `${label} saved.`,
  jsonInvalid: 'This is not valid JSON: check the brackets, quotes and commas.',
  exportLabel: (type: string) => `Export ${type.toUpperCase()}`,
  dashboardTrend: (label: string, days: number) => `${label}, last ${days} days`,
  lookupPlaceholder: 'Type to search',
  sectionsNav: 'Admin sections',
  queueTitle: 'Report queue',
  queueEmpty: 'No open reports. Nothing to do here.',
  queueShowAll: 'Show closed reports too',
  queueReported: (count: number) => `${count} open ${count === 1 ? 'report' : 'reports'}`,
  queueFlagged: (reason: string | null) => `Flagged: ${reason ?? 'No reason given'}`,
  queueMissing: 'Gone: deleted or archived since it was reported.',
  queueOpen: 'Open in the reader',
  queueReasonRequired: 'Give a reason: the author and readers are shown it.',
  queueDone: (label: string) => `${label}: done.`,
} as const;
