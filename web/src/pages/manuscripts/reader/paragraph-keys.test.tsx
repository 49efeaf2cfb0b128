import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReaderResponse } from '@margins/common';
import { buildConfig, buildCurrentUser } from '../../../test/factories.ts';
import { buildManuscript } from '../../../test/manuscripts.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ReaderPage } from './reader-page.tsx';

vi.mock('../../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));
// A socket that never connects: these tests are about the keyboard, not the live room.
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
  '<h1 id="h1">Chapter 1</h1>',
  '<p id="p1">The fog came in before the boats did.</p>',
  '<hr id="hr1" class="scene-break">',
  '<p id="p2">Maren counted the lamps along the harbour wall.</p>',
  '<p id="p3">Somewhere past the breakwater, a bell rang twice.</p>',
].join('');

class NoObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

function renderReader() {
  const manuscript = buildManuscript({ id: 31, title: 'The Salt Road', visibility: 'public' });
  const reader = buildCurrentUser({ id: 77 });
  const view: ReaderResponse = {
    manuscript_id: 31,
    manuscript_user_id: manuscript.user_id,
    visibility: 'public',
    current_user_id: reader.id,
    restricted_mature: false,
    restricted_moderation: false,
    moderationReason: null,
    manuscript,
    html: HTML,
    toc: [{ id: 'h1', level: 1, text: 'Chapter 1' }],
    words: 20,
  };
  renderWithApp(<ReaderPage />, {
    config: buildConfig('reader', view as unknown as Record<string, unknown>, reader),
    url: '/manuscript/document/reader/31',
  });
  return screen.getByTestId('reader-box');
}

const byId = (id: string) => document.getElementById(id) as HTMLElement;

describe('the reader by keyboard', () => {
  beforeEach(() => {
    vi.stubGlobal('IntersectionObserver', NoObserver);
    Element.prototype.scrollIntoView = vi.fn();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('puts one paragraph in the tab order at once, the others focusable once idle; scene breaks are skipped', async () => {
    const box = renderReader();
    expect(box.querySelectorAll('[tabindex="0"]')).toHaveLength(1);
    expect(byId('h1').getAttribute('tabindex')).toBe('0');
    await waitFor(() => expect(byId('p1').getAttribute('tabindex')).toBe('-1'));
    expect(byId('p3').getAttribute('tabindex')).toBe('-1');
    expect(box.querySelectorAll('[tabindex="0"]')).toHaveLength(1);
    expect(byId('hr1').hasAttribute('tabindex')).toBe(false);
    expect(byId('h1').getAttribute('aria-describedby')).toBe('paragraph-keys-hint');
  });

  it('moves with the arrows, j/k, Home and End; the tab stop follows', () => {
    renderReader();
    act(() => byId('h1').focus());
    fireEvent.keyDown(byId('h1'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(byId('p1'));
    fireEvent.keyDown(byId('p1'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(byId('p2'));
    fireEvent.keyDown(byId('p2'), { key: 'k' });
    expect(document.activeElement).toBe(byId('p1'));
    fireEvent.keyDown(byId('p1'), { key: 'End' });
    expect(document.activeElement).toBe(byId('p3'));
    expect(byId('p3').getAttribute('tabindex')).toBe('0');
    expect(byId('h1').getAttribute('tabindex')).toBe('-1');
    fireEvent.keyDown(byId('p3'), { key: 'Home' });
    expect(document.activeElement).toBe(byId('h1'));
  });

  it('shows the keys while a paragraph has the focus', async () => {
    renderReader();
    const hint = byId('paragraph-keys-hint');
    expect(hint.className).toBe('sr-only');
    // A click focuses a paragraph once the paragraphs are made focusable (in idle time).
    await waitFor(() => expect(byId('p2').hasAttribute('tabindex')).toBe(true));
    act(() => byId('p2').focus());
    expect(hint.className).not.toBe('sr-only');
    expect(hint.textContent).toContain('Enter selects the paragraph');
  });

  it('Enter selects the focused paragraph', () => {
    renderReader();
    act(() => byId('p2').focus());
    fireEvent.keyDown(byId('p2'), { key: 'Enter' });
    expect(window.getSelection()?.toString()).toBe(
      'Maren counted the lamps along the harbour wall.',
    );
  });
});
