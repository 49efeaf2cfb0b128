import { useEffect } from 'react';

/** Sets the tab title: "{title} · Margins", or "Margins" alone. */
export function useDocumentTitle(title: string | null): void {
  useEffect(() => {
    document.title = title
      ? `${title} · Margins`
      : 'Margins — share your manuscript with beta readers';
  }, [title]);
}
