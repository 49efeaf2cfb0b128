import { useRef } from 'react';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type Comment, type CommentListResponse, type Highlight } from '@margins/common';
import { TestSocket } from '../../realtime/test-socket.ts';
import { renderWithApp } from '../../test/render.tsx';
import { CommentsProvider } from './comments-context.tsx';
import { MarginColumn } from './margin-column.tsx';
import { UnplacedNotes } from './unplaced-notes.tsx';
import { buildComment, buildHighlight, buildWithheldHighlight, readerAuthor } from './test-data.ts';

const HTML = [
  '<p id="p1">The fog came in before the boats did, the way it always had.</p>',
  '<p id="p2">Maren counted the lamps along the <em>harbour</em> wall.</p>',
].join('\n');
const TEXT =
  'The fog came in before the boats did, the way it always had.\nMaren counted the lamps along the harbour wall.';

const owner = { id: 5, display_name: 'Ada Quill', handle: 'ada', picture: null };

/** The highlight the server would store over `quote` (first occurrence). */
function highlightOver(quote: string, overrides: Partial<Highlight> = {}): Highlight {
  const start = TEXT.indexOf(quote);
  return buildHighlight({
    start,
    end: start + quote.length,
    startPath: [],
    endPath: [],
    selectedText: quote,
    quote: { exact: quote, prefix: '', suffix: '' },
    ...overrides,
  });
}

/** A list answer as the server sends it: whole comments in, each writer once in `authors`. */
function list(
  overrides: Partial<Omit<CommentListResponse, 'comments'>> & { comments?: Comment[] } = {},
): CommentListResponse {
  const { comments = [], ...rest } = overrides;
  return {
    highlights: [],
    deleted: { comments: [], highlights: [] },
    cursor: '2026-01-05T10:00:00.000Z',
    ...rest,
    comments: comments.map(({ author: _author, ...comment }) => comment),
    authors: Object.fromEntries(comments.map((comment) => [comment.author_id, comment.author])),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Route = (url: string, init: RequestInit) => Response | undefined;
let fetchMock: ReturnType<typeof vi.fn>;
function stubFetch(route: Route) {
  fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const answer = route(url, init);
    if (!answer) throw new Error(`unexpected fetch ${init.method ?? 'GET'} ${url}`);
    return answer;
  });
  vi.stubGlobal('fetch', fetchMock);
}
const fetched = (pattern: RegExp) =>
  fetchMock.mock.calls.filter(([url]) => pattern.test(String(url))) as Array<[string, RequestInit]>;

function Reader({ socket, userId }: { socket: TestSocket; userId: number | null }) {
  const boxRef = useRef<HTMLDivElement>(null);
  return (
    <CommentsProvider
      manuscriptId={31}
      manuscriptOwnerId={owner.id}
      currentUserId={userId}
      boxRef={boxRef}
      html={HTML}
      socketFactory={() => socket.socket}
    >
      <div
        ref={boxRef}
        className="reader-box"
        data-testid="reader-box"
        dangerouslySetInnerHTML={{ __html: HTML }}
      />
      <UnplacedNotes />
      <aside data-testid="margin">
        <MarginColumn />
      </aside>
    </CommentsProvider>
  );
}

/** A socket whose server joins the room and acks writes like the real one. */
function liveSocket(extra: Record<string, (payload: never) => unknown> = {}) {
  return new TestSocket({
    join: (payload: { room: string }) => ({ ok: true, room: payload.room, users: [readerAuthor] }),
    ...extra,
  });
}

/** Selects `quote` in the reader box and presses Ctrl+Alt+M. */
async function commentOn(quote: string) {
  const box = screen.getByTestId('reader-box');
  // The text's model is read in a task after the one that shows it (use-highlight-layer.ts):
  // a selection is anchored once it is there (and the first drawing done).
  await waitFor(() => expect(box.dataset.highlights).toBe('painted'));
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const at = (node as Text).data.indexOf(quote);
    if (at === -1) continue;
    const range = document.createRange();
    range.setStart(node, at);
    range.setEnd(node, at + quote.length);
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    fireEvent.keyDown(document, { key: 'm', code: 'KeyM', ctrlKey: true, altKey: true });
    return;
  }
  throw new Error(`"${quote}" is not in the box`);
}

const margin = () => within(screen.getByTestId('margin'));
const marksOf = (selectionId: string) =>
  document.querySelectorAll(`mark[data-hl="${selectionId}"]`);

beforeEach(() => {
  document.cookie = 'csrf_token=csrf-for-test';
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.getSelection()?.removeAllRanges();
});

describe('writing a comment from a selection', () => {
  it('creates the highlight over the socket, saves the comment, and keeps one card when the broadcast follows the ack', async () => {
    stubFetch((url) => (url === '/comments/manuscript/31' ? json(list()) : undefined));
    let saved: Comment | null = null;
    const socket = liveSocket({
      highlight: (payload: {
        selection_id: string;
        highlight: { start: number; end: number };
      }) => ({
        ok: true,
        ...highlightOver('before the boats', { selection_id: payload.selection_id }),
      }),
      save_comment: (payload: { comment: { selection_id: string; comment: string } }) => {
        saved = buildComment({
          id: 41,
          selection_id: payload.comment.selection_id,
          comment: payload.comment.comment,
        });
        return { ok: true, deleted: false, ...saved };
      },
    });
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    await waitFor(() => expect(socket.sent('join')).toHaveLength(1));
    await waitFor(() => expect(fetched(/\/comments\/manuscript\/31/).length).toBeGreaterThan(0));

    await commentOn('before the boats');
    const [sent] = socket.sent('highlight') as Array<{
      room: string;
      selection_id: string;
      highlight: Record<string, unknown>;
    }>;
    expect(sent).toMatchObject({
      room: 'manuscript-31',
      manuscript_id: 31,
      highlight: {
        selectedText: 'before the boats',
        start: TEXT.indexOf('before the boats'),
        end: TEXT.indexOf('before the boats') + 16,
        startPath: [0, 0],
        endPath: [0, 0],
        block_id: 'p1',
        colour: 0, // the first highlight of the page: the first colour of the cycle
      },
    });
    const selectionId = sent!.selection_id;
    expect(marksOf(selectionId).length).toBe(1);

    fireEvent.change(await screen.findByTestId('comment-text'), {
      target: { value: 'Lovely rhythm here.' },
    });
    fireEvent.click(margin().getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(margin().getByText('Lovely rhythm here.')).toBeTruthy());
    expect(socket.sent('save_comment')).toEqual([
      {
        room: 'manuscript-31',
        comment: { selection_id: selectionId, comment: 'Lovely rhythm here.' },
      },
    ]);

    // The same comment again from the room (another tab of ours, or an HTTP write).
    act(() =>
      socket.fire('new_comment', { room: 'manuscript-31', comment: { ...saved!, rank: 3 } }),
    );
    expect(await margin().findByLabelText('Rank 3')).toBeTruthy();
    expect(margin().getAllByText('Lovely rhythm here.')).toHaveLength(1);
    expect(marksOf(selectionId)[0]!.className).toContain('hl hl-yellow');
  });

  it('says "Save or close the open comment first." when a second editor is asked for', async () => {
    const lamps = highlightOver('counted the lamps', { selection_id: 'sel-lamps' });
    stubFetch((url) =>
      url.startsWith('/comments/manuscript/31')
        ? json(
            list({
              highlights: [lamps],
              comments: [buildComment({ id: 7, selection_id: 'sel-lamps', comment: 'Nice.' })],
            }),
          )
        : undefined,
    );
    const socket = liveSocket({
      highlight: (payload: { selection_id: string }) => ({
        ok: true,
        ...highlightOver('The fog', { selection_id: payload.selection_id }),
      }),
    });
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    await waitFor(() => expect(socket.sent('join')).toHaveLength(1));
    await margin().findByText('Nice.');
    await commentOn('The fog');
    await screen.findByTestId('comment-text');

    // A reply elsewhere…
    fireEvent.click(margin().getByRole('button', { name: 'Reply' }));
    const alerts = await screen.findAllByText(MESSAGES.saveOrCloseComment);
    expect(alerts).toHaveLength(2); // the flash and the open editor's own line
    // …an edit, or another selection: still the one editor.
    fireEvent.click(margin().getByRole('button', { name: 'Edit' }));
    await commentOn('along the');
    expect(socket.sent('highlight')).toHaveLength(1);
    expect(screen.getAllByTestId('comment-text')).toHaveLength(1);
    expect(screen.getByTestId('comment-text').getAttribute('placeholder')).toBe('Add a comment');
  });

  it('deletes the highlight when its new comment is cancelled empty', async () => {
    stubFetch((url) => (url === '/comments/manuscript/31' ? json(list()) : undefined));
    const socket = liveSocket({
      highlight: (payload: { selection_id: string }) => ({
        ok: true,
        ...highlightOver('the lamps', { selection_id: payload.selection_id }),
      }),
      save_comment: (payload: { comment: { selection_id: string } }) => ({
        ok: true,
        deleted: true,
        id: null,
        selection_id: payload.comment.selection_id,
        highlight_removed: true,
      }),
    });
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    await waitFor(() => expect(socket.sent('join')).toHaveLength(1));
    await commentOn('the lamps');
    await screen.findByTestId('comment-text');
    const selectionId = (socket.sent('highlight')[0] as { selection_id: string }).selection_id;
    await waitFor(() => expect(marksOf(selectionId).length).toBe(1));

    fireEvent.click(margin().getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(socket.sent('save_comment')).toEqual([
        { room: 'manuscript-31', comment: { selection_id: selectionId, comment: '' } },
      ]),
    );
    expect(marksOf(selectionId)).toHaveLength(0);
    expect(screen.queryByTestId('comment-text')).toBeNull();
    expect(screen.getByTestId('reader-box').innerHTML).toBe(HTML);
  });

  it('falls back to HTTP when the socket is down: the comment creates its highlight', async () => {
    const created = buildComment({ id: 51, comment: 'Offline note' });
    stubFetch((url, init) => {
      if (url === '/comments/manuscript/31' && init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { highlight: { selection_id: string } };
        return json({
          comment: { ...created, selection_id: body.highlight.selection_id },
          highlight: highlightOver('harbour', { selection_id: body.highlight.selection_id }),
          deleted: false,
          highlight_removed: false,
        });
      }
      if (url === '/comments/manuscript/31') return json(list());
      return undefined;
    });
    const socket = new TestSocket(); // never connects (no server answers the join)
    socket.connect = () => socket;
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    await waitFor(() => expect(fetched(/\/comments\/manuscript\/31$/).length).toBe(1));
    await commentOn('harbour');
    fireEvent.change(await screen.findByTestId('comment-text'), {
      target: { value: 'Offline note' },
    });
    fireEvent.click(margin().getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(margin().getByText('Offline note')).toBeTruthy());
    const [, init] = fetched(/\/comments\/manuscript\/31$/).find(
      ([, request]) => request.method === 'POST',
    )!;
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-for-test');
    expect(JSON.parse(String(init.body))).toMatchObject({
      comment: 'Offline note',
      highlight: { selectedText: 'harbour', endPath: [2, 1, 0], endOffset: 7 },
    });
    expect(socket.emitted.filter((entry) => entry.event !== 'join')).toEqual([]);
  });
});

describe('live updates', () => {
  it('catches up after a reconnect: missed comments appear once, deleted ones go', async () => {
    const first = highlightOver('The fog', { selection_id: 'sel-fog' });
    const kept = buildComment({ id: 1, selection_id: 'sel-fog', comment: 'Was here before' });
    const doomed = buildComment({ id: 2, selection_id: 'sel-fog', comment: 'Deleted while away' });
    let catchUpsServed = 0;
    stubFetch((url) => {
      // The first join's catch-up finds nothing new; the one after the reconnect, what was missed.
      if (url.startsWith('/comments/manuscript/31?since=') && catchUpsServed++ === 0) {
        return json(list({ comments: [], cursor: '2026-01-05T10:09:00.000Z' }));
      }
      if (url.startsWith('/comments/manuscript/31?since=')) {
        return json(
          list({
            comments: [
              kept,
              buildComment({ id: 3, selection_id: 'sel-fog', comment: 'Written while away' }),
            ],
            deleted: { comments: [2], highlights: [] },
            cursor: '2026-01-05T10:09:00.000Z',
          }),
        );
      }
      if (url === '/comments/manuscript/31') {
        return json(list({ highlights: [first], comments: [kept, doomed] }));
      }
      return undefined;
    });
    const socket = liveSocket();
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    expect(await margin().findByText('Deleted while away')).toBeTruthy();
    const catchUps = () => fetched(/since=/).map(([url]) => url);
    await waitFor(() => expect(catchUps()).toHaveLength(1)); // the first join catches up too

    act(() => socket.drop());
    expect(document.querySelector('[data-connection]')).toBeNull(); // no toolbar in this harness
    act(() => {
      socket.connect();
    });
    await waitFor(() => expect(socket.sent('join')).toHaveLength(2));
    await waitFor(() => expect(catchUps()).toHaveLength(2));
    expect(catchUps()[1]).toContain(encodeURIComponent('2026-01-05T10:09:00.000Z'));
    await waitFor(() => expect(margin().queryByText('Deleted while away')).toBeNull());
    expect(margin().getAllByText('Written while away')).toHaveLength(1);
    expect(margin().getAllByText('Was here before')).toHaveLength(1);
  });

  it('draws new highlights and comments from the room, and removes deleted ones', async () => {
    stubFetch((url) => (url.startsWith('/comments/manuscript/31') ? json(list()) : undefined));
    const socket = liveSocket();
    renderWithApp(<Reader socket={socket} userId={owner.id} />);
    await waitFor(() => expect(socket.sent('join')).toHaveLength(1));
    await waitFor(() => expect(fetched(/since=/)).toHaveLength(1));

    // Someone else's highlight without a comment yet: drawn while it is new (they are writing).
    const highlight = highlightOver('always had', {
      selection_id: 'sel-live',
      colour: 3,
      created: new Date().toISOString(),
    });
    act(() =>
      socket.fire('new_highlight', {
        room: 'manuscript-31',
        highlight,
        selection_id: 'sel-live',
        manuscript_id: 31,
      }),
    );
    await waitFor(() => expect(marksOf('sel-live')).toHaveLength(1));
    expect(marksOf('sel-live')[0]!.className).toBe('hl hl-green');
    const comment = buildComment({ id: 61, selection_id: 'sel-live', comment: 'Live from June' });
    act(() => socket.fire('new_comment', { room: 'manuscript-31', comment }));
    expect(await margin().findByText('Live from June')).toBeTruthy();
    // The owner may delete anyone's comment; the reader's own report is not offered to them.
    expect(margin().getByRole('button', { name: 'Delete' })).toBeTruthy();

    act(() =>
      socket.fire('delete_comment', {
        room: 'manuscript-31',
        comment: { id: 61, selection_id: 'sel-live', manuscript_id: 31 },
        highlight_removed: true,
      }),
    );
    await waitFor(() => expect(margin().queryByText('Live from June')).toBeNull());
    expect(marksOf('sel-live')).toHaveLength(0);
  });
});

describe('what a comment shows', () => {
  it('a private comment shows the notice, a flagged one hides behind "Show comment" with its reason', async () => {
    const fog = highlightOver('The fog', { selection_id: 'sel-fog' });
    stubFetch((url) =>
      url.startsWith('/comments/manuscript/31')
        ? json(
            list({
              highlights: [fog],
              comments: [
                buildComment({
                  id: 1,
                  selection_id: 'sel-fog',
                  private: true,
                  comment: MESSAGES.privateComments,
                  author: owner,
                  author_id: owner.id,
                }),
                buildComment({
                  id: 2,
                  selection_id: 'sel-fog',
                  comment: 'Spoiler: the lamp was never lit.',
                  moderation_flag: true,
                  moderation_reason: 'Spoils the ending',
                  author: owner,
                  author_id: owner.id,
                }),
                buildComment({
                  id: 3,
                  selection_id: 'sel-fog',
                  comment: 'Rude words',
                  moderation_flag: true,
                  moderation_reason: null,
                  author: owner,
                  author_id: owner.id,
                }),
              ],
            }),
          )
        : undefined,
    );
    renderWithApp(<Reader socket={liveSocket()} userId={readerAuthor.id} />);
    const privateText = await margin().findByText(MESSAGES.privateComments);
    expect(privateText.className).toContain('text-muted');
    expect(margin().queryByText('Spoiler: the lamp was never lit.')).toBeNull();
    expect(margin().getByText(/Spoils the ending/)).toBeTruthy();
    expect(margin().getByText(new RegExp(MESSAGES.noReasonGiven))).toBeTruthy();

    const flagged = margin()
      .getByText(/Spoils the ending/)
      .closest('[data-flagged-comment]')!;
    fireEvent.click(within(flagged as HTMLElement).getByRole('button', { name: 'Show comment' }));
    expect(margin().getByText('Spoiler: the lamp was never lit.')).toBeTruthy();
    expect(margin().queryByText('Rude words')).toBeNull();
    // Someone else's comments: report, no edit or delete.
    expect(margin().getAllByRole('button', { name: 'Report' })).toHaveLength(3);
    expect(margin().queryByRole('button', { name: 'Edit' })).toBeNull();
  });

  it('lists another reader\'s private comment, sent without its place, under "Private comments" and paints nothing', async () => {
    // As the server presents someone else's highlight with private comments on: no quote and
    // no offset that would give it back from the text.
    const withheld = (selectionId: string) => buildWithheldHighlight({ selection_id: selectionId });
    const hidden = (id: number, selectionId: string) =>
      buildComment({
        id,
        selection_id: selectionId,
        private: true,
        comment: MESSAGES.privateComments,
        author_id: 12,
        author: { ...readerAuthor, id: 12, display_name: 'Other Reader' },
      });
    stubFetch((url) =>
      url.startsWith('/comments/manuscript/31')
        ? json(list({ highlights: [withheld('sel-hidden')], comments: [hidden(1, 'sel-hidden')] }))
        : undefined,
    );
    const socket = liveSocket();
    renderWithApp(<Reader socket={socket} userId={readerAuthor.id} />);
    const section = await screen.findByTestId('private-notes');
    expect(within(section).getByText('Private comments')).toBeTruthy();
    expect(within(section).getByText(MESSAGES.privateComments)).toBeTruthy();
    expect(within(section).getByText('The passage is kept private.')).toBeTruthy();
    expect(screen.queryByTestId('unplaced-notes')).toBeNull();

    // One more arrives live, the same way.
    await waitFor(() => expect(socket.sent('join')).toHaveLength(1));
    act(() => {
      socket.fire('new_highlight', {
        room: 'manuscript-31',
        highlight: withheld('sel-live-hidden'),
        selection_id: 'sel-live-hidden',
        manuscript_id: 31,
      });
      socket.fire('new_comment', { room: 'manuscript-31', comment: hidden(2, 'sel-live-hidden') });
    });
    await waitFor(() =>
      expect(within(section).getAllByText(MESSAGES.privateComments)).toHaveLength(2),
    );
    const box = screen.getByTestId('reader-box');
    await waitFor(() => expect(box.dataset.highlights).toBe('painted'));
    expect(document.querySelectorAll('mark.hl')).toHaveLength(0);
    expect(margin().queryByText(MESSAGES.privateComments)).toBeNull();
  });

  it('lists a highlight that cannot be placed any more under "Unplaced notes" with its quote', async () => {
    const gone = highlightOver('The fog', {
      selection_id: 'sel-gone',
      orphaned: true,
      quote: { exact: 'a passage the author cut', prefix: '', suffix: '' },
    });
    const lost = highlightOver('x', {
      selection_id: 'sel-lost',
      start: 500,
      end: 510,
      startPath: [9, 9],
      quote: { exact: 'words that are nowhere now', prefix: '', suffix: '' },
    });
    stubFetch((url) =>
      url.startsWith('/comments/manuscript/31')
        ? json(
            list({
              highlights: [gone, lost],
              comments: [
                buildComment({ id: 1, selection_id: 'sel-gone', comment: 'Kept, not dropped' }),
                buildComment({ id: 2, selection_id: 'sel-lost', comment: 'Also kept' }),
              ],
            }),
          )
        : undefined,
    );
    renderWithApp(<Reader socket={liveSocket()} userId={readerAuthor.id} />);
    const section = await screen.findByTestId('unplaced-notes');
    expect(within(section).getByText('Unplaced notes')).toBeTruthy();
    expect(within(section).getByText('“a passage the author cut”')).toBeTruthy();
    expect(within(section).getByText('“words that are nowhere now”')).toBeTruthy();
    expect(within(section).getByText('Kept, not dropped')).toBeTruthy();
    expect(document.querySelectorAll('mark.hl')).toHaveLength(0);
  });
});
