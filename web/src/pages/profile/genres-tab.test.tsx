import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GenreCategory } from '@margins/common';
import { renderWithApp } from '../../test/render.tsx';
import { GenresTab } from './genres-tab.tsx';

const categories: GenreCategory[] = [
  {
    category: 'fiction',
    genres: [
      { genre_id: 1, name: 'Fantasy' },
      { genre_id: 2, name: 'Mystery' },
    ],
  },
  { category: 'poetry', genres: [{ genre_id: 7, name: 'Sonnets' }] },
];

describe('GenresTab', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  function checkbox(name: string): HTMLInputElement {
    return screen.getByRole('checkbox', { name }) as HTMLInputElement;
  }

  it('groups genres by category and checks the selected ones', () => {
    renderWithApp(<GenresTab categories={categories} selectedGenreIds={[2]} />);
    expect(screen.getByRole('group', { name: 'Fiction' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Poetry' })).toBeTruthy();
    expect(checkbox('Fantasy').checked).toBe(false);
    expect(checkbox('Mystery').checked).toBe(true);
  });

  it('PUTs on check and keeps the box checked on success', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    renderWithApp(<GenresTab categories={categories} selectedGenreIds={[]} />);
    fireEvent.click(checkbox('Fantasy'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/profile/genres/1');
    expect(init.method).toBe('PUT');
    await waitFor(() => expect(checkbox('Fantasy').checked).toBe(true));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reverts a checked box and flashes "Unable to update genres" when the PUT fails', async () => {
    fetchMock.mockResolvedValueOnce(new Response('{"error":"nope"}', { status: 500 }));
    renderWithApp(<GenresTab categories={categories} selectedGenreIds={[]} />);
    fireEvent.click(checkbox('Fantasy'));
    expect(checkbox('Fantasy').checked).toBe(true);
    expect(await screen.findByText('Unable to update genres')).toBeTruthy();
    expect(checkbox('Fantasy').checked).toBe(false);
  });

  it('reverts an unchecked box when the DELETE fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    renderWithApp(<GenresTab categories={categories} selectedGenreIds={[2]} />);
    fireEvent.click(checkbox('Mystery'));
    expect(await screen.findByText('Unable to update genres')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/profile/genres/2');
    expect(init.method).toBe('DELETE');
    expect(checkbox('Mystery').checked).toBe(true);
  });
});
