import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_CONTROLS_AFTER, type Manuscript } from '@margins/common';
import { DashboardPage } from '../../pages/manuscripts/dashboard-page.tsx';
import { buildConfig, buildCurrentUser } from '../../test/factories.ts';
import { buildCatalogue, buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ManuscriptCard } from './manuscript-card.tsx';
import { arrangeManuscripts, DEFAULT_ARRANGEMENT } from './manuscript-list-controls.tsx';

const day = (n: number) => `2026-02-${String(n).padStart(2, '0')}T10:00:00.000Z`;

/** Ten manuscripts of every visibility, created a day apart. */
function shelf(): Manuscript[] {
  const visibilities = ['private', 'restricted', 'logged_in', 'public'] as const;
  return Array.from({ length: 10 }, (_, index) =>
    buildManuscript({
      id: 100 + index,
      title: `${['Salt', 'Harbour', 'Lamp', 'Kestrel', 'Fog'][index % 5]} ${index}`,
      visibility: visibilities[index % 4],
      created: day(index + 1),
      updated: day(20 - index),
      comment_count: (index * 7) % 10,
      words: 1000 + index * 100,
    }),
  );
}

const titles = (list: Manuscript[]) => list.map((manuscript) => manuscript.title);

describe('arrangeManuscripts', () => {
  it('sorts by each order, ties newest first', () => {
    const list = shelf();
    expect(titles(arrangeManuscripts(list, DEFAULT_ARRANGEMENT))[0]).toBe('Fog 9');
    expect(titles(arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, sort: 'updated' }))[0]).toBe(
      'Salt 0',
    );
    expect(
      titles(arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, sort: 'title' })).slice(0, 2),
    ).toEqual(['Fog 4', 'Fog 9']);
    const byComments = arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, sort: 'comments' });
    expect(byComments.map((manuscript) => manuscript.comment_count)).toEqual(
      [...byComments.map((manuscript) => manuscript.comment_count)].sort((a, b) => b - a),
    );
    expect(arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, sort: 'words' })[0]!.words).toBe(
      1900,
    );
  });

  it('filters by visibility and by words of the title, and leaves the input alone', () => {
    const list = shelf();
    const before = titles(list);
    const publicOnes = arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, visibility: 'public' });
    expect(publicOnes.every((manuscript) => manuscript.visibility === 'public')).toBe(true);
    expect(publicOnes).toHaveLength(2);
    expect(titles(arrangeManuscripts(list, { ...DEFAULT_ARRANGEMENT, query: ' lamp ' }))).toEqual([
      'Lamp 7',
      'Lamp 2',
    ]);
    expect(titles(list)).toEqual(before);
  });
});

describe('cards and the dashboard', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"manuscripts":[]}', { status: 200 })),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('a card says who can read the manuscript', () => {
    renderWithApp(
      <>
        <ManuscriptCard manuscript={buildManuscript({ visibility: 'private' })} index={0} />
        <ManuscriptCard manuscript={buildManuscript({ visibility: 'logged_in' })} index={1} />
        <ManuscriptCard manuscript={buildManuscript({ visibility: 'public' })} index={2} />
      </>,
      { config: buildConfig('dashboard') },
    );
    const shown = Array.from(document.querySelectorAll('[data-visibility]')).map(
      (badge) => badge.textContent,
    );
    expect(shown).toEqual(['Visibility: Private', 'Visibility: Members', 'Visibility: Public']);
  });

  function renderDashboard(manuscripts: Manuscript[]) {
    renderWithApp(<DashboardPage />, {
      config: buildConfig(
        'dashboard',
        { manuscripts, bookmarks: [], invites: [], categories: buildCatalogue() },
        buildCurrentUser({ id: 5 }),
      ),
      url: '/dashboard',
    });
  }

  it('no controls for a screenful or less', () => {
    renderDashboard(shelf().slice(0, DASHBOARD_CONTROLS_AFTER));
    expect(screen.queryByRole('search')).toBeNull();
  });

  it('past a screenful, sort and filter the cards', () => {
    renderDashboard(shelf());
    const controls = screen.getByRole('search', { name: 'Sort and filter my manuscripts' });
    const list = screen.getByRole('list', { name: 'My manuscripts' });
    const cardTitles = () =>
      within(list)
        .getAllByRole('heading')
        .map((heading) => heading.textContent);
    expect(cardTitles()[0]).toBe('Fog 9');
    fireEvent.change(within(controls).getByLabelText('Sort'), { target: { value: 'title' } });
    expect(cardTitles().slice(0, 2)).toEqual(['Fog 4', 'Fog 9']);
    fireEvent.change(within(controls).getByLabelText('Who can read'), {
      target: { value: 'public' },
    });
    expect(cardTitles()).toHaveLength(2);
    expect(within(controls).getByRole('status').textContent).toContain('Showing 2 of 10.');
    fireEvent.click(within(controls).getByRole('button', { name: 'Show all' }));
    expect(cardTitles()).toHaveLength(10);
    fireEvent.change(within(controls).getByLabelText('Find by title'), {
      target: { value: 'kestrel' },
    });
    // Still sorted by title.
    expect(cardTitles()).toEqual(['Kestrel 3', 'Kestrel 8']);
  });
});
