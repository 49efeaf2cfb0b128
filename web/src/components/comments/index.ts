// The reader's highlights and comments: what the reader page puts where.
export { CommentsProvider, useComments } from './comments-context.tsx';
export { CommentsButton, CommentsDrawer } from './comments-drawer.tsx';
export { MarginColumn } from './margin-column.tsx';
export { ReaderToolbar } from './reader-toolbar.tsx';
export { UnplacedNotes } from './unplaced-notes.tsx';
