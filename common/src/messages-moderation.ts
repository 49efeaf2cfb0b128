/** Messages of moderation: suspension, staff openings, maintenance (our own; SPEC is silent). */
export const MODERATION_MESSAGES = {
  accountSuspended: (reason: string | null) =>
    `This account is suspended by our moderators${reason ? `: ${reason}` : ''}. Write to us from the contact page if you think this is a mistake.`,
  staffOpened: (date: string) =>
    `A moderator opened this manuscript on ${date} while reviewing a report.`,
  maintenanceDefault: 'Margins is under maintenance: some things may not work for a little while.',
  reasonRequired: 'Give a reason: the author and readers are shown it.',
  notFound: (what: string) => `That ${what} does not exist (any more).`,
  noSuchReports: 'None of these reports exist.',
  privateUnlessReported: 'A private comment: its text is shown only while a report on it is open.',
  cannotSuspendStaff: 'Staff accounts cannot be suspended: an admin changes their role first.',
} as const;
