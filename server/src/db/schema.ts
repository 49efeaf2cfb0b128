// The whole schema (drizzle-kit reads this file): every table, from the file of its area.
export * from './schema-accounts.ts';
export * from './schema-manuscripts.ts';
export * from './schema-comments.ts';
export * from './schema-access.ts';
export * from './schema-search.ts';
export * from './schema-limits.ts';
export * from './schema-events.ts';
export * from './schema-moderation.ts';
export * from './schema-admin.ts';
export * from './schema-payments.ts';
export * from './schema-insights.ts';
export * from './schema-threads.ts';
export * from './schema-wire.ts';
