import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import themeScript from '../../public/static/theme.js?raw';
import { applyTheme, getThemePreference, setThemePreference, watchTheme } from './theme.ts';

/** A controllable prefers-color-scheme media query. */
function fakeMedia(initiallyDark: boolean) {
  let matches = initiallyDark;
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  const query = {
    get matches() {
      return matches;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
      listeners.add(listener),
    removeEventListener: (_type: string, listener: (event: MediaQueryListEvent) => void) =>
      listeners.delete(listener),
  };
  vi.stubGlobal(
    'matchMedia',
    vi.fn(() => query),
  );
  return {
    setDark(dark: boolean) {
      matches = dark;
      for (const listener of listeners) listener({ matches: dark } as MediaQueryListEvent);
    },
  };
}

const root = document.documentElement;

describe('theme store', () => {
  beforeEach(() => {
    localStorage.clear();
    root.className = '';
    delete root.dataset.theme;
  });
  afterEach(() => vi.unstubAllGlobals());

  it('saves the preference under ms-theme-pref and applies it at once', () => {
    fakeMedia(false);
    setThemePreference('dark');
    expect(localStorage.getItem('ms-theme-pref')).toBe('dark');
    expect(root.dataset.theme).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);

    setThemePreference('light');
    expect(localStorage.getItem('ms-theme-pref')).toBe('light');
    expect(root.dataset.theme).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
  });

  it('defaults to auto, and ignores unknown saved values', () => {
    expect(getThemePreference()).toBe('auto');
    localStorage.setItem('ms-theme-pref', 'purple');
    expect(getThemePreference()).toBe('auto');
  });

  it('auto follows the system colour scheme, also when it changes', () => {
    const media = fakeMedia(true);
    const stop = watchTheme();
    setThemePreference('auto');
    expect(root.dataset.theme).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);

    media.setDark(false);
    expect(root.dataset.theme).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);

    media.setDark(true);
    expect(root.classList.contains('dark')).toBe(true);
    stop();
  });

  it('a fixed choice does not follow the system', () => {
    const media = fakeMedia(false);
    const stop = watchTheme();
    setThemePreference('light');
    media.setDark(true);
    expect(root.dataset.theme).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
    stop();
  });

  it('static/theme.js applies the saved theme before the app loads', () => {
    fakeMedia(false);
    localStorage.setItem('ms-theme-pref', 'dark');
    const script = themeScript;
    new Function(script)();
    expect(root.dataset.theme).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);

    localStorage.setItem('ms-theme-pref', 'auto');
    fakeMedia(false);
    new Function(script)();
    expect(root.dataset.theme).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
    expect(applyTheme()).toBe('light');
  });
});
