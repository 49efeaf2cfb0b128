import { useSyncExternalStore } from 'react';
import { defaultLightTheme, type RaThemeOptions } from 'react-admin';

/**
 * The app's palette (web/src/styles.css) in Material UI terms: MUI computes hover and
 * contrast shades from real colours, so the CSS variables are repeated here as values.
 */
const PALETTES = {
  light: {
    page: '#f6f1e7',
    surface: '#fffcf6',
    ink: '#2a2520',
    muted: '#6b6157',
    line: '#e2d8c6',
    accent: '#9a3b26',
    onAccent: '#fffaf2',
    danger: '#b42318',
    success: '#2f6b3f',
  },
  dark: {
    page: '#12141a',
    surface: '#1a1d25',
    ink: '#e9e3d7',
    muted: '#a59c8f',
    line: '#2d313c',
    accent: '#e59472',
    onAccent: '#1b1410',
    danger: '#ff8a7a',
    success: '#8fd19e',
  },
} as const;

type AdminThemeMode = keyof typeof PALETTES;

/** react-admin's theme in the app's colours and fonts for light or dark. */
export function adminTheme(mode: AdminThemeMode): RaThemeOptions {
  const colours = PALETTES[mode];
  return {
    ...defaultLightTheme,
    palette: {
      mode,
      primary: { main: colours.accent, contrastText: colours.onAccent },
      secondary: { main: colours.accent, contrastText: colours.onAccent },
      error: { main: colours.danger },
      success: { main: colours.success },
      background: { default: colours.page, paper: colours.surface },
      text: { primary: colours.ink, secondary: colours.muted },
      divider: colours.line,
    },
    typography: {
      fontFamily:
        "'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', sans-serif",
    },
    shape: { borderRadius: 8 },
  };
}

function subscribe(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}

function currentMode(): AdminThemeMode {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

/** Light or dark as the app's theme switcher has put it on <html> (follows later switches). */
export function useAppThemeMode(): AdminThemeMode {
  return useSyncExternalStore(subscribe, currentMode, () => 'light');
}
