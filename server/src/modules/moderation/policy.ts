import { forbidden } from '../../lib/http-errors.ts';

/** Who runs a moderation action: a moderator or an admin (the admin router checks the role). */
export interface ModerationActor {
  id: number;
  role: 'moderator' | 'admin';
}

/** Staff only: a second check under the router's, so a service called elsewhere is safe too. */
export function assertModerator(actor: { id: number; role: string }): ModerationActor {
  if (actor.role !== 'moderator' && actor.role !== 'admin') throw forbidden();
  return actor as ModerationActor;
}
