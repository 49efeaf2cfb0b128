import { Profiler } from 'react';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReaderResponse } from '@margins/common';
import { reloadPage } from '../../../lib/navigation.ts';
import { buildConfig, buildCurrentUser } from '../../../test/factories.ts';
import { buildManuscript } from '../../../test/manuscripts.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { loadBookmarks } from './page-bookmarks.ts';
import { ReaderPage } from './reader-page.tsx';
import { nestToc } from './table-of-contents.tsx';

vi.mock('../../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));
// The reader opens a live comments room: these tests use a socket that never connects.
vi.mock('../../../realtime/socket.ts', async (importOriginal) => {
  const { TestSocket } = await import('../../../realtime/test-socket.ts');
  return {
    ...(await importOriginal<typeof import('../../../realtime/socket.ts')>()),
    createSocket: () => {
      const socket = new TestSocket();
      socket.connect = () => socket;
      return socket.socket;
    },
  };
});

const HTML = [
  '<h1 id="h-title">The Salt Road</h1>',
  '<h2 id="h-part">Part One</h2>',
  '<h1 id="h-c1">Chapter 1</h1>',
  '<p id="p1">The fog came in before the boats did, the way it always had.</p>',
  '<hr id="hr1" class="scene-break">',
  '<p id="p2">Maren counted the lamps along the harbour wall.</p>',
  '<h1 id="h-c2">Chapter 2</h1>',
  '<h3 id="h-c2s">The bell</h3>',
  '<p id="p3">Somewhere past the breakwater, a bell rang twice.</p>',
].join('');

const TOC: ReaderResponse['toc'] = [
  { id: 'h-title', level: 1, text: 'The Salt Road' },
  { id: 'h-part', level: 2, text: 'Part One' },
  { id: 'h-c1', level: 1, text: 'Chapter 1' },
  { id: 'h-c2', level: 1, text: 'Chapter 2' },
  { id: 'h-c2s', level: 3, text: 'The bell' },
];

const reader = buildCurrentUser({ id: 77, display_name: 'Sam Reader' });

function buildView(overrides: Partial<ReaderResponse> = {}): ReaderResponse {
  const manuscript = buildManuscript({ id: 31, title: 'The Salt Road', visibility: 'public' });
  return {
    manuscript_id: 31,
    manuscript_user_id: manuscript.user_id,
    visibility: 'public',
    current_user_id: reader.id,
    restricted_mature: false,
    restricted_moderation: false,
    moderationReason: null,
    manuscript,
    html: HTML,
    toc: TOC,
    words: 38,
    ...overrides,
  };
}

/** Where the test puts each block in the window (the reading position reads these). */
const blockRects = new Map<Element, DOMRect>();

/**
 * Puts exactly these blocks (by id) in the reading band (the upper third of the window, under
 * the header), the blocks before them above it, and scrolls.
 */
function readAt(...ids: string[]) {
  const blocks = Array.from(screen.getByTestId('reader-box').children);
  const first = blocks.findIndex((block) => ids.includes(block.id));
  blocks.forEach((block, index) => {
    const top = index < first ? -400 + index * 10 : index === first ? 80 : 400 + index * 10;
    blockRects.set(block, new DOMRect(0, top, 600, index < first ? 0 : 40));
  });
  act(() => {
    window.dispatchEvent(new Event('scroll'));
  });
  // With fake timers the frame after the scroll comes when time moves on.
  if (vi.isFakeTimers()) act(() => vi.advanceTimersByTime(16));
}

function renderReader(view: ReaderResponse = buildView(), user = reader) {
  return renderWithApp(<ReaderPage />, {
    config: buildConfig('reader', view as unknown as Record<string, unknown>, user),
    url: '/manuscript/document/reader/31',
  });
}

function tocLink(name: string): HTMLElement {
  return within(
    screen.getAllByRole('navigation', { name: 'Table of contents' })[0] as HTMLElement,
  ).getByRole('link', { name });
}

describe('the reader', () => {
  beforeEach(() => {
    localStorage.clear();
    blockRects.clear();
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (
      this: Element,
    ) {
      return blockRects.get(this) ?? new DOMRect(0, 0, 0, 0);
    });
    // Frames run at once (handle 0: nothing left pending): the reading position is read one
    // frame after a scroll.
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => {
      callback(performance.now());
      return 0;
    });
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    Element.prototype.scrollIntoView = vi.fn();
    vi.mocked(reloadPage).mockReset();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('nests the h1–h3 headings of the contents', () => {
    const tree = nestToc(TOC);
    expect(tree.map((node) => node.entry.text)).toEqual([
      'The Salt Road',
      'Chapter 1',
      'Chapter 2',
    ]);
    expect(tree[0]?.children.map((node) => node.entry.text)).toEqual(['Part One']);
    expect(tree[2]?.children.map((node) => node.entry.text)).toEqual(['The bell']);
  });

  it('renders the text in the reader box and the contents as nested links to the blocks', () => {
    renderReader();
    const box = screen.getByTestId('reader-box');
    expect(box.className).toContain('reader-box');
    expect(box.querySelector('hr.scene-break')).toBeTruthy();
    expect(box.children).toHaveLength(9);

    const nav = screen.getAllByRole('navigation', { name: 'Table of contents' })[0] as HTMLElement;
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'The Salt Road',
      'Part One',
      'Chapter 1',
      'Chapter 2',
      'The bell',
    ]);
    expect(tocLink('Chapter 2').getAttribute('href')).toBe('#h-c2');
    // "The bell" (h3) sits in a list inside Chapter 2's item.
    expect(tocLink('The bell').closest('ol')?.closest('li')?.querySelector('a')?.textContent).toBe(
      'Chapter 2',
    );
  });

  it('jumps to a heading from the contents and marks the section being read', () => {
    renderReader();
    fireEvent.click(tocLink('Chapter 2'));
    const heading = document.getElementById('h-c2') as HTMLElement;
    expect(heading.scrollIntoView).toHaveBeenCalled();
    expect(document.activeElement).toBe(heading);

    readAt('p1', 'hr1');
    expect(tocLink('Chapter 1').getAttribute('aria-current')).toBe('location');
    expect(tocLink('Chapter 2').getAttribute('aria-current')).toBeNull();
    readAt('h-c2', 'h-c2s');
    expect(tocLink('Chapter 2').getAttribute('aria-current')).toBe('location');
    readAt('p3');
    expect(tocLink('The bell').getAttribute('aria-current')).toBe('location');
    expect(tocLink('Chapter 1').getAttribute('aria-current')).toBeNull();
  });

  it('adds a page bookmark at the current block: its index and first 20 characters', () => {
    renderReader();
    readAt('p1');
    fireEvent.click(
      screen.getAllByRole('button', { name: 'Bookmark this spot' })[0] as HTMLElement,
    );
    expect(loadBookmarks('margins-bookmarks:77:31')).toEqual([
      { idx: 3, text: 'The fog came in befo', auto: false },
    ]);
    const list = screen.getAllByText('The fog came in befo…');
    expect(list.length).toBeGreaterThan(0);
  });

  it('tracks the reading position after 5 s on a block, once the reader has moved, replacing it', () => {
    vi.useFakeTimers();
    renderReader();
    const auto = () => loadBookmarks('margins-bookmarks:77:31').filter((bookmark) => bookmark.auto);

    act(() => vi.advanceTimersByTime(10_000));
    expect(auto()).toEqual([]); // Opening the page does not overwrite the last position.

    readAt('p2');
    act(() => vi.advanceTimersByTime(4_900));
    expect(auto()).toEqual([]);
    act(() => vi.advanceTimersByTime(100));
    expect(auto()).toEqual([{ idx: 5, text: 'Maren counted the la', auto: true }]);

    readAt('p3');
    act(() => vi.advanceTimersByTime(2_000));
    readAt('h-c2'); // moved on before 5 s: nothing saved for p3
    act(() => vi.advanceTimersByTime(5_000));
    expect(auto()).toEqual([{ idx: 6, text: 'Chapter 2', auto: true }]);
  });

  it('removes a bookmark', () => {
    localStorage.setItem(
      'margins-bookmarks:77:31',
      JSON.stringify([{ idx: 5, text: 'Maren counted the la', auto: false }]),
    );
    renderReader();
    fireEvent.click(
      screen.getAllByRole('button', {
        name: 'Remove bookmark “Maren counted the la”',
      })[0] as HTMLElement,
    );
    expect(loadBookmarks('margins-bookmarks:77:31')).toEqual([]);
  });

  it('shows the moderators’ notice before a flagged text, and the text after "Continue"', () => {
    renderReader(buildView({ restricted_moderation: true, moderationReason: 'Reported as spam' }));
    expect(screen.queryByTestId('reader-box')).toBeNull();
    // Nothing to navigate while the gate stands: no contents, bookmarks or reading bar.
    expect(screen.queryByRole('complementary', { name: 'Contents and bookmarks' })).toBeNull();
    expect(screen.queryByRole('button', { name: /contents/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Bookmark this spot' })).toBeNull();
    expect(
      screen.getByText('This manuscript was flagged by our moderators. Reason: Reported as spam'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue to the manuscript' }));
    expect(screen.getByTestId('reader-box')).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Contents and bookmarks' })).toBeTruthy();
  });

  it('asks for 18+ before mature text: certifies with the CSRF header, then reloads', async () => {
    document.cookie = 'csrf_token=csrf-for-test';
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ ok: true }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderReader(buildView({ restricted_mature: true, html: '', toc: [] }));
    expect(screen.queryByTestId('reader-box')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I am 18 or over' }));
    await vi.waitFor(() => expect(reloadPage).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/profile/certify18');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-for-test');
  });

  it('gives the author the edit form and the delete button, and nobody else', () => {
    const view = buildView();
    const author = buildCurrentUser({ id: view.manuscript_user_id });
    renderReader(view, author);
    expect(screen.getByRole('button', { name: 'Edit details' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Delete The Salt Road' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Edit details' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit manuscript' });
    expect(within(dialog).getByRole('button', { name: 'Save manuscript' })).toBeTruthy();
    expect(within(dialog).getByText('Upload a new draft')).toBeTruthy();
  });

  it('hides the author tools from readers, and keeps the margin column', () => {
    renderReader();
    expect(screen.queryByRole('button', { name: 'Edit details' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect(document.querySelector('[data-margin-column]')).toBeTruthy();
  });

  it('renders nothing around the text while the reader moves within a chapter (issue 18)', () => {
    const view = buildView();
    const author = buildCurrentUser({ id: view.manuscript_user_id });
    let commits = 0;
    renderWithApp(
      <Profiler id="reader" onRender={() => commits++}>
        <ReaderPage />
      </Profiler>,
      {
        config: buildConfig('reader', view as unknown as Record<string, unknown>, author),
        url: '/manuscript/document/reader/31',
      },
    );
    readAt('p1');
    const before = commits;
    readAt('hr1');
    readAt('p2');
    expect(commits).toBe(before);

    // Further down the box: the bar and the percents follow, the page still does not render.
    const box = screen.getByTestId('reader-box');
    blockRects.set(box, new DOMRect(0, 64 - 300, 600, 300 + window.innerHeight - 64 + 300));
    readAt('p2');
    expect(screen.getByRole('progressbar', { name: 'Reading progress' }).ariaValueNow).toBe('50');
    expect(screen.getByText('50% read', { exact: false })).toBeTruthy();
    // One commit: the percents' own render.
    expect(commits).toBe(before + 1);
  });
});
