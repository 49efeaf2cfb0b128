import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Manuscript } from '@margins/common';
import { buildBookmark } from '../../components/access/test-fixtures.ts';
import { buildConfig, buildCurrentUser } from '../../test/factories.ts';
import { buildCatalogue, buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { DashboardPage } from './dashboard-page.tsx';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

const me = buildCurrentUser({ id: 5, display_name: 'Ada Quill' });

function renderDashboard(manuscripts: Manuscript[], extra: Record<string, unknown> = {}) {
  renderWithApp(<DashboardPage />, {
    config: buildConfig(
      'dashboard',
      { manuscripts, bookmarks: [], invites: [], categories: buildCatalogue(), ...extra },
      me,
    ),
    url: '/dashboard',
  });
}

describe('the dashboard', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async () => jsonResponse(200, { manuscripts: [] }));
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('invites the first upload when there are no manuscripts, and shows empty reads and invites', () => {
    renderDashboard([]);
    expect(screen.getByText('Your desk is clear')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Reads/ })).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Pending invites/ })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Upload your first manuscript' }));
    const dialog = screen.getByRole('dialog', { name: 'New manuscript' });
    expect(within(dialog).getByRole('form', { name: 'Upload a manuscript' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('lists my manuscripts from the page data as cards, without polling the list', () => {
    renderDashboard([
      buildManuscript({ id: 1, title: 'First' }),
      buildManuscript({ id: 2, title: 'Second' }),
    ]);
    const list = screen.getByRole('list', { name: 'My manuscripts' });
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(within(list).getByRole('link', { name: 'First' })).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('opens the edit modal with its manuscript Info tab', () => {
    renderDashboard([buildManuscript({ id: 3, title: 'Third' })]);
    fireEvent.click(screen.getByRole('button', { name: 'Edit Third' }));
    const dialog = screen.getByRole('dialog', { name: 'Third' });
    const tab = within(dialog).getByRole('tab', { name: 'manuscript Info' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(
      within(dialog)
        .getAllByRole('tab')
        .map((item) => item.textContent),
    ).toEqual(['manuscript Info', 'Questionnaire', 'Feedback', 'Share', 'Insights']);
    expect(within(dialog).getByLabelText('Title')).toHaveProperty('value', 'Third');
    expect(within(dialog).getByText('Upload a new draft')).toBeTruthy();
  });

  it('archives a manuscript after confirmation, and it leaves the list', async () => {
    fetchMock.mockImplementation(async (url: string, init?: RequestInit) => {
      if (init?.method === 'DELETE') return jsonResponse(200, { ok: true });
      return jsonResponse(200, { manuscripts: [buildManuscript({ id: 8, title: 'Keep' })] });
    });
    renderDashboard([
      buildManuscript({ id: 7, title: 'Old draft' }),
      buildManuscript({ id: 8, title: 'Keep' }),
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Old draft' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete “Old draft”?' });
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete manuscript' }));

    await screen.findByText('Manuscript deleted.');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/manuscript/7');
    expect(init.method).toBe('DELETE');
    expect(screen.queryByRole('link', { name: 'Old draft' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Keep' })).toBeTruthy();
  });

  it('keeps an inking card without a link or buttons', () => {
    renderDashboard([buildManuscript({ id: 9, title: 'Wet ink', inking: true })]);
    const card = document.querySelector('[data-manuscript-card="9"]') as HTMLElement;
    expect(card.textContent).toContain('Inking ...');
    expect(within(card).queryByRole('link')).toBeNull();
    expect(within(card).queryByRole('button')).toBeNull();
  });

  it('shows the reads the page data carries', () => {
    renderDashboard([], {
      bookmarks: [buildBookmark(buildManuscript({ id: 10, title: 'Borrowed book' }), 42)],
    });
    const reads = screen.getByRole('list', { name: 'Reads' });
    expect(within(reads).getByRole('link', { name: 'Borrowed book' })).toBeTruthy();
    expect(
      within(reads)
        .getByRole('progressbar', { name: 'Reading progress of Borrowed book' })
        .getAttribute('aria-valuenow'),
    ).toBe('42');
  });
});
