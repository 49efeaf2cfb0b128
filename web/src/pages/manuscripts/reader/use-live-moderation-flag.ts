import { useEffect, useState } from 'react';
import type { ManuscriptFlaggedEvent } from '@margins/common';
import { MANUSCRIPT_FLAGGED } from '../../../realtime/manuscript-room.ts';

/**
 * The moderation notice of the manuscript being read, kept live: a moderator's flag reaches a
 * reader already on the page (the room's manuscript_flagged), who then sees SPEC's notice.
 * The author is never held up by it.
 */
export function useLiveModerationFlag(
  manuscriptId: number,
  initial: { restricted: boolean; reason: string | null },
  isAuthor: boolean,
): { restricted: boolean; reason: string | null } {
  const [state, setState] = useState(initial);
  useEffect(() => {
    const handle = (event: Event) => {
      const detail = (event as CustomEvent<ManuscriptFlaggedEvent>).detail;
      if (detail.manuscript_id !== manuscriptId) return;
      setState({
        restricted: detail.moderation_flag && !isAuthor,
        reason: detail.moderation_reason,
      });
    };
    window.addEventListener(MANUSCRIPT_FLAGGED, handle);
    return () => window.removeEventListener(MANUSCRIPT_FLAGGED, handle);
  }, [manuscriptId, isAuthor]);
  return state;
}
