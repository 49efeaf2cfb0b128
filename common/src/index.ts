export * from './constants.ts';
export * from './messages.ts';
export * from './csrf.ts';
export * from './schemas/common.ts';
export {
  controlCharacterProblem,
  idField,
  INT4_MAX,
  plainText,
  singleLineText,
} from './schemas/fields.ts';
export * from './schemas/user.ts';
export * from './schemas/auth.ts';
export * from './schemas/profile.ts';
export * from './schemas/contact.ts';
export * from './schemas/page-config.ts';
export * from './schemas/manuscript.ts';
export * from './schemas/comments.ts';
export * from './schemas/comments-reports.ts';
export * from './schemas/comments-socket.ts';
export * from './schemas/comments-threads.ts';
export * from './schemas/access.ts';
export * from './messages-conversion.ts';
export * from './messages-moderation.ts';
export * from './messages-admin.ts';
export * from './schemas/manuscript-report.ts';
export * from './schemas/discover.ts';
export * from './schemas/list.ts';
export * from './schemas/dev-mail.ts';
export * from './schemas/moderation.ts';
export * from './anchoring/index.ts';
export * from './messages-admin-ui.ts';
export * from './schemas/admin.ts';
export * from './schemas/insights.ts';
