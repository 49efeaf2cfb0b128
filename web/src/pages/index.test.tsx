import { Suspense } from 'react';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { pageComponent, preloadPage } from './index.ts';

// A page's chunk loaded before the app's first render (main.tsx) renders the page itself, not
// a Suspense fallback first: after one, React held the reader's page back ~300 ms (issue 18).

function renderPage(page: string) {
  const Page = pageComponent(page);
  return renderWithApp(
    <Suspense fallback={<p>Loading the page</p>}>
      <Page />
    </Suspense>,
  );
}

describe('pages loaded on demand', () => {
  it('renders a preloaded page at once, with no fallback first', async () => {
    await preloadPage('terms');
    renderPage('terms');
    expect(screen.queryByText('Loading the page')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Terms of use' })).toBeTruthy();
  });

  it('still loads a page that was not preloaded, behind the fallback', async () => {
    renderPage('privacy');
    expect(screen.getByText('Loading the page')).toBeTruthy();
    expect(await screen.findByRole('heading', { name: /privacy/i })).toBeTruthy();
  });

  it('has nothing to load for the pages in the main chunk, or a page it does not know', async () => {
    await expect(preloadPage('home')).resolves.toBeUndefined();
    await expect(preloadPage('no-such-page')).resolves.toBeUndefined();
  });
});
