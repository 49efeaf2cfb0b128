import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import { DashboardPage } from '../../pages/manuscripts/dashboard-page.tsx';
import { buildConfig, buildCurrentUser } from '../../test/factories.ts';
import { buildCatalogue, buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { buildBookmark, buildInvite, jsonResponse } from './test-fixtures.ts';

const me = buildCurrentUser({ id: 40, display_name: 'Sam Reader' });
const saltRoad = buildManuscript({ id: 31, title: 'The Salt Road' });
const harbour = buildManuscript({ id: 32, title: 'Harbour Lights' });

function renderDashboard(extra: Record<string, unknown>) {
  renderWithApp(<DashboardPage />, {
    config: buildConfig(
      'dashboard',
      { manuscripts: [], bookmarks: [], invites: [], categories: buildCatalogue(), ...extra },
      me,
    ),
    url: '/dashboard',
  });
}

const flashText = () => document.querySelector('[data-flash]')?.textContent;

describe('the dashboard’s reads and pending invites', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows each read with its progress, and removes one', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    renderDashboard({ bookmarks: [buildBookmark(harbour, 100), buildBookmark(saltRoad, null)] });
    const reads = screen.getByRole('list', { name: 'Reads' });
    expect(within(reads).getByText('Finished')).toBeTruthy();
    expect(within(reads).getByText('Not started')).toBeTruthy();

    fireEvent.click(
      within(reads).getByRole('button', { name: 'Remove Harbour Lights from reads' }),
    );
    await waitFor(() =>
      expect(within(reads).queryByRole('link', { name: 'Harbour Lights' })).toBeNull(),
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/bookmark/32',
      expect.objectContaining({ method: 'DELETE' }),
    );
  });

  it('accepts an invite: "Added to reads!" and it moves to the reads', async () => {
    const invite = buildInvite({ id: 5 });
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { bookmark: buildBookmark(saltRoad, null) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderDashboard({ invites: [invite] });
    const invites = screen.getByRole('list', { name: 'Pending invites' });
    expect(within(invites).getByText('Ada Quill invited you to read it.')).toBeTruthy();
    fireEvent.click(
      within(invites).getByRole('button', { name: 'Accept the invite to The Salt Road' }),
    );
    expect(await screen.findByText(MESSAGES.addedToReads)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Pending invites' })).toBeNull();
    const reads = screen.getByRole('list', { name: 'Reads' });
    expect(within(reads).getByRole('link', { name: 'The Salt Road' })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/invite/5/accept',
      expect.objectContaining({ method: 'POST' }),
    );
  });

  it.each([
    [403, MESSAGES.acceptForbidden, true],
    [404, MESSAGES.inviteMoved, false],
  ])('says SPEC’s sentence when accepting gets a %i', async (status, message, stays) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(status, { error: 'server words' })),
    );
    renderDashboard({ invites: [buildInvite({ id: 6 })] });
    fireEvent.click(screen.getByRole('button', { name: 'Accept the invite to The Salt Road' }));
    await waitFor(() => expect(flashText()).toBe(message));
    expect(screen.queryByRole('list', { name: 'Pending invites' }) !== null).toBe(stays);
  });

  it('declines an invite: DELETE /invite/:id and it leaves the list', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    renderDashboard({ invites: [buildInvite({ id: 7 })] });
    fireEvent.click(screen.getByRole('button', { name: 'Decline the invite to The Salt Road' }));
    expect(await screen.findByText('No invitations waiting')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith(
      '/invite/7',
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
