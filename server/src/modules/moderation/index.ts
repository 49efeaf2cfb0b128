// The moderation services (issue 14): the admin router's moderation actions call these.
export { clearCommentFlag, clearManuscriptFlag, flagComment, flagManuscript } from './flags.ts';
export { liftSuspension, suspendUser } from './suspension.ts';
export { dismissReports, reportQueue } from './reports.ts';
export type { ModerationActor } from './policy.ts';
