import { useSyncExternalStore } from 'react';
import { THEME_KEY, THEMES, type Theme } from '@margins/common';

/** Light or dark: what a theme preference resolves to right now. */
type ResolvedTheme = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';
const listeners = new Set<() => void>();

function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** The saved preference (light, dark or auto); auto when nothing valid is saved. */
export function getThemePreference(): Theme {
  try {
    const saved = window.localStorage.getItem(THEME_KEY);
    return isTheme(saved) ? saved : 'auto';
  } catch {
    return 'auto';
  }
}

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

/** What a preference means now: auto follows the system's colour scheme. */
function resolveTheme(preference: Theme): ResolvedTheme {
  if (preference === 'auto') return systemPrefersDark() ? 'dark' : 'light';
  return preference;
}

/** Puts a preference on <html>: data-theme, data-theme-pref and the `dark` class. */
export function applyTheme(preference: Theme = getThemePreference()): ResolvedTheme {
  const theme = resolveTheme(preference);
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.themePref = preference;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
  return theme;
}

/** Saves a preference under ms-theme-pref and applies it at once. */
export function setThemePreference(preference: Theme): void {
  try {
    window.localStorage.setItem(THEME_KEY, preference);
  } catch {
    // Storage blocked: the choice still applies to this page.
  }
  applyTheme(preference);
  for (const listener of listeners) listener();
}

/**
 * Keeps the page in step with the system scheme while the preference is auto, and with
 * choices made in other tabs. Returns the function that stops watching.
 */
export function watchTheme(): () => void {
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  const handleSystemChange = () => {
    if (getThemePreference() === 'auto') applyTheme('auto');
    for (const listener of listeners) listener();
  };
  const handleStorage = (event: StorageEvent) => {
    if (event.key !== THEME_KEY) return;
    applyTheme();
    for (const listener of listeners) listener();
  };
  media?.addEventListener('change', handleSystemChange);
  window.addEventListener('storage', handleStorage);
  return () => {
    media?.removeEventListener('change', handleSystemChange);
    window.removeEventListener('storage', handleStorage);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current preference as React state, and the setter that saves and applies it. */
export function useThemePreference(): [Theme, (preference: Theme) => void] {
  const preference = useSyncExternalStore(subscribe, getThemePreference, () => 'auto' as Theme);
  return [preference, setThemePreference];
}
