import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SharePageData } from '@margins/common';
import { buildInvite, jsonResponse } from '../../components/access/test-fixtures.ts';
import { buildConfig } from '../../test/factories.ts';
import { loadPage } from '../../lib/navigation.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ShareLandingPage } from './share-landing.tsx';

vi.mock('../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

function render(data: SharePageData) {
  renderWithApp(<ShareLandingPage />, {
    config: buildConfig('share', data as unknown as Record<string, unknown>),
    url: `/share/${data.code}`,
  });
}

const manuscript = {
  id: 31,
  title: 'The Salt Road',
  summary: 'A keeper’s daughter counts the lamps.',
  author: { id: 5, display_name: 'Ada Quill', handle: 'ada' },
};

describe('the share-link landing', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the manuscript and accepts only when the button is pressed (a POST)', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { redirect: '/manuscript/document/reader/31' }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render({
      state: 'accept',
      code: 'abc',
      message: 'You are invited to read this manuscript. Accept to add it to your reads.',
      manuscript,
    });
    expect(screen.getByRole('heading', { name: 'You’re invited to read' })).toBeTruthy();
    expect(screen.getByText('The Salt Road')).toBeTruthy();
    expect(screen.getByText('by Ada Quill')).toBeTruthy();
    expect(screen.getByText(/counts the lamps/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Accept and start reading' }));
    await vi.waitFor(() => expect(loadPage).toHaveBeenCalledWith('/manuscript/document/reader/31'));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/share/abc/accept');
    expect(init.method).toBe('POST');
  });

  it('says a used one-time link was used', () => {
    render({
      state: 'used',
      code: 'abc',
      message: 'This one-time link has already been used. Ask the author for a new one.',
      manuscript: null,
    });
    expect(screen.getByRole('heading', { name: 'This link was already used' })).toBeTruthy();
    expect(screen.getByText(/already been used/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Ask the author/ })).toBeNull();
  });

  it('asks for access to a restricted manuscript, then says the request is pending', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { invite: buildInvite({ kind: 'request', status: 'requested' }) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render({
      state: 'request_access',
      code: 'abc',
      message: 'This manuscript is restricted: ask the author for access.',
      manuscript,
    });
    expect(screen.getByText('The Salt Road')).toBeTruthy();
    expect(screen.getByText('by Ada Quill')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Ask the author for access' }));
    expect(await screen.findByRole('heading', { name: 'Request sent' })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/share/abc/request');
    expect(init.method).toBe('POST');
  });

  it('shows a pending request without the button', () => {
    render({
      state: 'request_pending',
      code: 'abc',
      message: 'You asked for access. The author has not answered yet.',
      manuscript,
    });
    expect(screen.getByRole('heading', { name: 'Request sent' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Ask the author/ })).toBeNull();
  });
});
