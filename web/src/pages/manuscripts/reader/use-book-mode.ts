import { useEffect } from 'react';

/**
 * Marks the document while a text is shown (`:root.reading-book`, reader-book.css): the
 * site's sticky bars drop their backdrop blur over a scrolling book.
 */
export function useBookMode(textShown: boolean): void {
  useEffect(() => {
    if (!textShown) return;
    const root = document.documentElement;
    root.classList.add('reading-book');
    return () => root.classList.remove('reading-book');
  }, [textShown]);
}
