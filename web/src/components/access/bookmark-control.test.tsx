import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, type Bookmark } from '@margins/common';
import { buildConfig } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { BookmarkControl } from './bookmark-control.tsx';
import { buildBookmark, jsonResponse } from './test-fixtures.ts';

function Harness({ initial }: { initial: Bookmark | null }) {
  const [bookmark, setBookmark] = useState(initial);
  return <BookmarkControl manuscriptId={31} bookmark={bookmark} onChange={setBookmark} />;
}

function render(initial: Bookmark | null = null) {
  renderWithApp(<Harness initial={initial} />, { config: buildConfig('reader') });
}

const flashText = () => document.querySelector('[data-flash]')?.textContent;

describe('the bookmark control', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('adds to reads: POST /bookmark/:id, "Added to reads!", then "In your reads"', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, { bookmark: buildBookmark(buildManuscript({ id: 31 })) }),
    );
    vi.stubGlobal('fetch', fetchMock);
    render();
    fireEvent.click(screen.getByRole('button', { name: 'Add to reads' }));
    expect(await screen.findByText(MESSAGES.addedToReads)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'In your reads' })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/bookmark/31');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBeDefined();
  });

  it.each([
    [403, MESSAGES.bookmarkForbidden],
    [400, MESSAGES.bookmarkExists],
    [404, MESSAGES.bookmarkMissing],
    [500, MESSAGES.serverCommunication],
  ])('says SPEC’s sentence for a %i', async (status, message) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(status, { error: 'the server’s own words' })),
    );
    render();
    fireEvent.click(screen.getByRole('button', { name: 'Add to reads' }));
    await waitFor(() => expect(flashText()).toBe(message));
    expect(screen.getByRole('button', { name: 'Add to reads' })).toBeTruthy();
  });

  it('removes it from the reads: DELETE /bookmark/:id', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    render(buildBookmark(buildManuscript({ id: 31 })));
    fireEvent.click(screen.getByRole('button', { name: 'In your reads' }));
    expect(await screen.findByRole('button', { name: 'Add to reads' })).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/bookmark/31');
    expect(init.method).toBe('DELETE');
  });
});
