import { useEffect, useRef, type MouseEvent } from 'react';
import type { TocEntry } from '@margins/common';

/** A heading of the contents with the headings under it. */
interface TocNode {
  entry: TocEntry;
  children: TocNode[];
}

/**
 * Nests the flat h1–h3 list: each heading goes under the nearest earlier heading of a
 * higher rank (a lower level number); headings that have none stay at the top.
 */
export function nestToc(entries: TocEntry[]): TocNode[] {
  const roots: TocNode[] = [];
  const stack: TocNode[] = [];
  for (const entry of entries) {
    const node: TocNode = { entry, children: [] };
    while (stack.length > 0 && (stack[stack.length - 1]?.entry.level ?? 0) >= entry.level) {
      stack.pop();
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.children.push(node);
    else roots.push(node);
    stack.push(node);
  }
  return roots;
}

function TocList({
  nodes,
  currentId,
  onNavigate,
  depth,
}: {
  nodes: TocNode[];
  currentId: string | null;
  onNavigate: (id: string) => void;
  depth: number;
}) {
  return (
    <ol className={depth > 0 ? 'mt-0.5 ml-3 border-l border-line pl-2' : 'space-y-0.5'}>
      {nodes.map(({ entry, children }) => {
        const current = entry.id === currentId;
        return (
          <li key={entry.id}>
            <a
              href={`#${entry.id}`}
              aria-current={current ? 'location' : undefined}
              data-toc-id={entry.id}
              onClick={(event: MouseEvent<HTMLAnchorElement>) => {
                event.preventDefault();
                onNavigate(entry.id);
              }}
              // No colour transition: the current entry changes as a book is scrolled, and each
              // change animated two entries' styles and repainted the sidebar for 150 ms (issue 18).
              className={`-ml-px block rounded-md border-l-2 py-1.5 pr-2 pl-3 text-sm leading-snug no-underline ${
                current
                  ? 'border-accent bg-accent-soft/70 font-semibold text-ink'
                  : 'border-transparent text-muted hover:bg-sunken hover:text-ink'
              } ${entry.level === 1 ? 'font-serif text-[0.95rem]' : ''}`}
            >
              {entry.text || 'Untitled section'}
            </a>
            {children.length > 0 ? (
              <TocList
                nodes={children}
                currentId={currentId}
                onNavigate={onNavigate}
                depth={depth + 1}
              />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The table of contents (h1–h3, nested) with the current section marked. */
export function TableOfContents({
  entries,
  currentId,
  onNavigate,
  revealCurrent = false,
}: {
  entries: TocEntry[];
  currentId: string | null;
  onNavigate: (id: string) => void;
  /** Scrolls the current entry into sight when shown (in the phone drawer). */
  revealCurrent?: boolean;
}) {
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!revealCurrent) return;
    navRef.current
      ?.querySelector('[aria-current="location"]')
      ?.scrollIntoView?.({ block: 'center' });
    // Only when it opens: later changes are the reader's own scrolling.
  }, [revealCurrent]);

  return (
    <nav ref={navRef} aria-label="Table of contents" data-toc>
      <h2 className="eyebrow mb-3">Contents</h2>
      {entries.length === 0 ? (
        <p className="text-sm text-muted">This manuscript has no headings.</p>
      ) : (
        <TocList nodes={nestToc(entries)} currentId={currentId} onNavigate={onNavigate} depth={0} />
      )}
    </nav>
  );
}

/** The id of the section being read: the last heading at or before the current block. */
export function currentSectionId(
  entries: TocEntry[],
  blockIndexOfId: Map<string, number>,
  blockIndex: number,
): string | null {
  let current: string | null = null;
  for (const entry of entries) {
    const index = blockIndexOfId.get(entry.id);
    if (index === undefined) continue;
    if (index <= blockIndex) current = entry.id;
    else break;
  }
  return current;
}
