import type { RankDirection } from '@margins/common';
import type { ManuscriptRow } from '../manuscripts/presenter.ts';
import type { AuthorFields, CommentRow, HighlightRow } from './presenter.ts';

/**
 * What a committed comment write tells the manuscript's room. The realtime module presents each
 * for its recipients (private comments!) and emits new_highlight, new_comment, delete_comment or
 * comment_ranked.
 */
export type CommentEvent =
  | { kind: 'highlight'; manuscript: ManuscriptRow; highlight: HighlightRow }
  | { kind: 'comment'; manuscript: ManuscriptRow; comment: CommentRow; author: AuthorFields }
  | {
      kind: 'delete';
      manuscript: ManuscriptRow;
      /** Null when a never-saved comment was cancelled. */
      commentId: number | null;
      selectionId: string;
      highlightRemoved: boolean;
    }
  | {
      kind: 'rank';
      manuscript: ManuscriptRow;
      commentId: number;
      dir: RankDirection;
      rank: number;
    };

/** Where a write came from: its socket is left out of the broadcast (it has the ack). */
export interface WriteOptions {
  originSocketId?: string;
  /** The manuscript the caller believes the comment is on (the socket's room): 404 otherwise. */
  manuscriptId?: number;
}
