import type { TestClient } from '../../test/harness.ts';
import type { TestApp } from '../../test/harness.ts';
import { buildUser, loggedInClient } from '../../test/factories.ts';
import type { UserRow } from '../../context.ts';

export interface StaffClients {
  admin: { client: TestClient; user: UserRow };
  moderator: { client: TestClient; user: UserRow };
  member: { client: TestClient; user: UserRow };
}

/** An admin, a moderator and a plain user, each logged in. */
export async function staffClients(test: TestApp): Promise<StaffClients> {
  const admin = await loggedInClient(test, await buildUser(test.ctx.db, { role: 'admin' }));
  const moderator = await loggedInClient(test, await buildUser(test.ctx.db, { role: 'moderator' }));
  const member = await loggedInClient(test);
  return { admin, moderator, member };
}
