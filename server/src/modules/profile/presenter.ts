import type { InviteCode, LookupResponse } from '@margins/common';
import type { schema } from '../../db/index.ts';
import type { UserRow } from '../../context.ts';

type InviteCodeRow = typeof schema.platformInviteCodes.$inferSelect;

/** A platform invite code as its creator sees it. */
export function presentInviteCode(row: InviteCodeRow): InviteCode {
  return {
    code: row.code,
    redeemed: row.redeemedById !== null || row.redeemedAt !== null,
    created: row.createdAt.toISOString(),
  };
}

/** A user in the invite autocomplete: id, handle and name only, never the e-mail. */
export function presentLookupUser(
  user: Pick<UserRow, 'id' | 'handle' | 'displayName'>,
): LookupResponse['users'][number] {
  return { id: user.id, handle: user.handle, display_name: user.displayName };
}
