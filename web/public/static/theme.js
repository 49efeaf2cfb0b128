// Applies the saved theme (localStorage 'ms-theme-pref': light | dark | auto) before the
// first paint. Loaded as a blocking script from <head>; keep in step with src/lib/theme.ts.
/* global window, document */
(function () {
  var pref = 'auto';
  try {
    var saved = window.localStorage.getItem('ms-theme-pref');
    if (saved === 'light' || saved === 'dark' || saved === 'auto') pref = saved;
  } catch {
    // Storage can be blocked (private mode, policies): fall back to auto.
  }
  var prefersDark =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-color-scheme: dark)').matches;
  var theme = pref === 'auto' ? (prefersDark ? 'dark' : 'light') : pref;
  var root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.themePref = pref;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();
