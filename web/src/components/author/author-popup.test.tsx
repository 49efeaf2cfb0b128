import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../test/factories.ts';
import { renderWithApp } from '../../test/render.tsx';
import { AuthorPopup } from './author-popup.tsx';

const june = buildUser({
  display_name: 'June Harrow',
  handle: 'juneh',
  pronouns: 'she/her',
  about: 'Writes quiet ghost stories.',
  bluesky: 'june.bsky.social',
  discord: 'juneh#1234',
  website: 'https://juneharrow.example',
  mastodon: 'juneh@mastodon.social',
});
const ravi = buildUser({ display_name: 'Ravi Okafor', handle: null, about: null });

function renderTwoAuthors() {
  renderWithApp(
    <div>
      <AuthorPopup author={june} />
      <AuthorPopup author={ravi} />
      <p>Somewhere else on the page</p>
    </div>,
  );
  return {
    juneButton: screen.getByRole('button', { name: 'June Harrow' }),
    raviButton: screen.getByRole('button', { name: 'Ravi Okafor' }),
  };
}

function openDialogs() {
  return screen.queryAllByRole('dialog');
}

describe('AuthorPopup', () => {
  it('opens a card with the author details and social links three per row', () => {
    const { juneButton } = renderTwoAuthors();
    fireEvent.click(juneButton);
    const card = screen.getByRole('dialog', { name: 'About June Harrow' });
    expect(card.textContent).toContain('@juneh');
    expect(card.textContent).toContain('she/her');
    expect(card.textContent).toContain('Writes quiet ghost stories.');
    expect(card.querySelector('[data-testid="social-links"]')?.className).toContain('grid-cols-3');
    const bluesky = card.querySelector('a[data-social="bluesky"]');
    expect(bluesky?.getAttribute('href')).toBe('https://bsky.app/profile/june.bsky.social');
    // Discord is shown without a link; mastodon only links a full https:// URL.
    expect(card.querySelector('a[data-social="discord"]')).toBeNull();
    expect(card.querySelector('[data-social="discord"]')?.textContent).toBe('juneh#1234');
    expect(card.querySelector('a[data-social="mastodon"]')).toBeNull();
    expect(card.querySelector('a[data-social="website"]')?.getAttribute('href')).toBe(
      'https://juneharrow.example',
    );
    expect(card.querySelector(`a[href="/profile/get/${june.id}"]`)).toBeTruthy();
    expect(juneButton.getAttribute('aria-expanded')).toBe('true');
  });

  it('shows the placeholders for a missing handle and a blank bio', () => {
    const { raviButton } = renderTwoAuthors();
    fireEvent.click(raviButton);
    const card = screen.getByRole('dialog', { name: 'About Ravi Okafor' });
    expect(card.textContent).toContain('(missing handle)');
    expect(card.textContent).toContain("A blank slate ... (author hasn't provided yet!)");
  });

  it('keeps one popup open at a time', () => {
    const { juneButton, raviButton } = renderTwoAuthors();
    fireEvent.click(juneButton);
    expect(openDialogs()).toHaveLength(1);
    fireEvent.click(raviButton);
    expect(openDialogs()).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'About Ravi Okafor' })).toBeTruthy();
    expect(juneButton.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes on a click elsewhere, but not on a click inside the card', () => {
    const { juneButton } = renderTwoAuthors();
    fireEvent.click(juneButton);
    fireEvent.click(screen.getByRole('dialog'));
    expect(openDialogs()).toHaveLength(1);
    fireEvent.click(screen.getByText('Somewhere else on the page'));
    expect(openDialogs()).toHaveLength(0);
  });

  it('a second click on the same author while open does nothing', () => {
    const { juneButton } = renderTwoAuthors();
    fireEvent.click(juneButton);
    const card = screen.getByRole('dialog', { name: 'About June Harrow' });
    fireEvent.click(juneButton);
    expect(openDialogs()).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'About June Harrow' })).toBe(card);
  });

  it('Escape closes it and gives focus back to the name', () => {
    const { juneButton } = renderTwoAuthors();
    fireEvent.click(juneButton);
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    expect(openDialogs()).toHaveLength(0);
    expect(document.activeElement).toBe(juneButton);
  });
});
