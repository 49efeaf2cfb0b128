import { useSyncExternalStore } from 'react';

/** Tailwind's xl breakpoint (80rem): from here on the margin column is shown. */
export const WIDE_QUERY = '(min-width: 80rem)';

/** Whether a media query matches now, following its changes. Without matchMedia: true. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : true),
    () => true,
  );
}
