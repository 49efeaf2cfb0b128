// The moderation services (issue 14): the admin router's moderation actions call these.
export {
  clearCommentFlag,
  clearManuscriptFlag,
  flagComment,
  flagManuscript,
  setCommentFlags,
  setManuscriptFlags,
} from './flags.ts';
export { liftSuspension, liftSuspensions, suspendUser, suspendUsers } from './suspension.ts';
export {
  dismissOpenReports,
  dismissReports,
  flagReportedElements,
  reportQueue,
} from './reports.ts';
