import { useRef, type KeyboardEvent, type ReactNode } from 'react';

interface TabItem<Id extends string> {
  id: Id;
  label: ReactNode;
}

/** Arrow keys, Home and End move between tabs (WAI-ARIA tabs pattern). */
const KEY_MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index) => index + 1,
  ArrowLeft: (index) => index - 1,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * A row of ARIA tabs with keyboard navigation. Tab `id`s are `{idPrefix}tab-{id}` and they
 * control `{idPrefix}panel-{id}`, which the caller renders.
 */
export function TabList<Id extends string>({
  tabs,
  selected,
  onSelect,
  label,
  idPrefix = '',
  className,
  tabClassName = '',
}: {
  tabs: ReadonlyArray<TabItem<Id>>;
  selected: Id;
  onSelect: (id: Id) => void;
  label: string;
  idPrefix?: string;
  className: string;
  tabClassName?: string;
}) {
  const tabRefs = useRef(new Map<Id, HTMLButtonElement>());

  const handleKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const move = KEY_MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    const index = tabs.findIndex((candidate) => candidate.id === selected);
    const next = tabs[(move(index, tabs.length) + tabs.length) % tabs.length];
    if (!next) return;
    onSelect(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  return (
    <div role="tablist" aria-label={label} className={className}>
      {tabs.map((candidate) => {
        const isSelected = candidate.id === selected;
        return (
          <button
            key={candidate.id}
            ref={(element) => {
              if (element) tabRefs.current.set(candidate.id, element);
            }}
            type="button"
            role="tab"
            id={`${idPrefix}tab-${candidate.id}`}
            aria-selected={isSelected}
            aria-controls={`${idPrefix}panel-${candidate.id}`}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(candidate.id)}
            onKeyDown={handleKeyDown}
            className={`-mb-px shrink-0 cursor-pointer border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors ${tabClassName} ${
              isSelected
                ? 'border-accent text-accent'
                : 'border-transparent text-muted hover:border-line hover:text-ink'
            }`}
          >
            {candidate.label}
          </button>
        );
      })}
    </div>
  );
}
