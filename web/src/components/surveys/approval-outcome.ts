/**
 * What happens to a reader who answers the questionnaire, in the author's words. It follows
 * the server's rule (surveys/service.ts): with "Approve readers first" on, every answer waits
 * for the author, whatever its score; otherwise a score at the pass mark lets the reader in
 * when auto-approve is on, and everyone else waits.
 */
export function approvalOutcome(options: {
  approvalsRequired: boolean;
  autoApprove: boolean;
  autoApprovePercent: number;
}): string {
  if (options.approvalsRequired) {
    return (
      'What happens: every reader who answers waits for your approval, whatever their score — ' +
      '“Approve readers first” is on in manuscript Info' +
      (options.autoApprove ? ', so nobody is approved automatically.' : '.')
    );
  }
  if (options.autoApprove) {
    const mark = Number.isFinite(options.autoApprovePercent)
      ? `${options.autoApprovePercent}%`
      : 'the pass mark';
    return `What happens: readers who score ${mark} or more read at once; the others wait for your approval.`;
  }
  return 'What happens: every reader who answers waits for your approval.';
}

/** The Info tab's hint for "Approve readers first", in step with approvalOutcome. */
export const APPROVE_FIRST_HINT =
  'Readers who answer your questionnaire wait for your approval, even with a passing score ' +
  '(automatic approval is off while this is on). Without a questionnaire, readers with access ' +
  'read at once.';
