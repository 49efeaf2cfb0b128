import type { UserRow } from '../../context.ts';
import type { StoredMedia } from './service.ts';

/**
 * Who may fetch a stored file. Profile pictures are public. Anything else is refused
 * (answered 404) until its own module adds a rule here: manuscript images will be
 * readable by whoever may read their manuscript.
 */
export function canViewMedia(
  _viewer: UserRow | null,
  media: Pick<StoredMedia, 'isProfilePicture'>,
): boolean {
  return media.isProfilePicture;
}
