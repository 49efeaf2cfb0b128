import type { DiscoverItem } from '@margins/common';

/** Where a result matched: its text with the matched words marked (text nodes, never HTML). */
export function Snippet({ parts }: { parts: DiscoverItem['snippet'] }) {
  if (parts.length === 0 || !parts.some((part) => part.match)) return null;
  return (
    <p className="px-1 font-serif text-sm leading-relaxed text-muted" data-testid="snippet">
      …
      {parts.map((part, index) =>
        part.match ? (
          <mark key={index} className="rounded-sm bg-note-1 px-0.5 text-ink">
            {part.text}
          </mark>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
      …
    </p>
  );
}
