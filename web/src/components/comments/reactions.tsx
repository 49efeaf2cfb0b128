import { REACTION_NAMES, REACTIONS, type ReactionSet } from '@margins/common';

/**
 * The reactions of a comment or reply: each used one with its count and, on hover, who reacted;
 * a small picker for the rest. A click says which state it wants (on or off), so a double click
 * cannot undo itself.
 */
export function Reactions({
  reactions,
  currentUserId,
  canReact,
  onReact,
}: {
  reactions: ReactionSet['reactions'];
  currentUserId: number | null;
  canReact: boolean;
  onReact: (name: (typeof REACTION_NAMES)[number], on: boolean) => void;
}) {
  const used = new Set(reactions.map((reaction) => reaction.name));
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-1" data-reactions>
      {reactions.map((reaction) => {
        const mine = reaction.users.some((user) => user.id === currentUserId);
        const who = reaction.users.map((user) => user.display_name).join(', ');
        return (
          <button
            key={reaction.name}
            type="button"
            disabled={!canReact}
            aria-pressed={mine}
            title={who}
            aria-label={`${REACTIONS[reaction.name]} ${reaction.count}: ${who}`}
            data-reaction={reaction.name}
            onClick={(event) => {
              event.stopPropagation();
              onReact(reaction.name, !mine);
            }}
            className={`inline-flex cursor-pointer items-center gap-1 rounded-full border px-2 py-0.5 text-xs tabular-nums disabled:cursor-default ${
              mine ? 'border-accent bg-accent-soft text-ink' : 'border-line text-muted'
            }`}
          >
            <span aria-hidden="true">{REACTIONS[reaction.name]}</span>
            {reaction.count}
          </button>
        );
      })}
      {canReact ? (
        <details className="relative" onClick={(event) => event.stopPropagation()}>
          {/* Not the browser's list item counted in list-item: see ReplyItem (comment-extras.tsx). */}
          <summary
            className="block cursor-pointer list-none rounded-full [counter-increment:none] border border-dashed border-line px-2 py-0.5 text-xs text-muted hover:text-ink"
            aria-label="Add a reaction"
          >
            ☺+
          </summary>
          <div className="absolute z-10 mt-1 flex gap-1 rounded-lg border border-line bg-surface p-1 shadow-card">
            {REACTION_NAMES.filter((name) => !used.has(name)).map((name) => (
              <button
                key={name}
                type="button"
                className="cursor-pointer rounded px-1 text-base hover:bg-sunken"
                aria-label={`React ${REACTIONS[name]}`}
                data-add-reaction={name}
                onClick={(event) => {
                  (event.currentTarget.closest('details') as HTMLDetailsElement).open = false;
                  onReact(name, true);
                }}
              >
                {REACTIONS[name]}
              </button>
            ))}
          </div>
        </details>
      ) : null}
    </div>
  );
}
