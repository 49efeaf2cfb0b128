import { z } from 'zod';
import { currentUser } from './user.ts';

/** The server-provided page configuration of SPEC §3, injected into every page. */
export const pageConfig = z.object({
  page: z.string(),
  currentUserId: z.number().nullable(),
  current_user_id: z.number().nullable(),
  currentUser: currentUser.nullable(),
  loginState: z.enum(['anonymous', 'incomplete', 'logged_in']),
  productsEnabled: z.boolean(),
  invitesEnabled: z.boolean(),
  /** The maintenance notice shown on every page while that feature is on (null: off). */
  maintenanceNotice: z.string().nullable().optional(),
  /** Extra values a page route adds (manuscript_id, visibility, …). */
  data: z.record(z.string(), z.unknown()),
});
export type PageConfig = z.infer<typeof pageConfig>;
