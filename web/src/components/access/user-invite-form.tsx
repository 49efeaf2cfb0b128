import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MESSAGES, SEARCH_DEBOUNCE_MS, type Invite } from '@margins/common';
import {
  inviteByUserOrEmail,
  inviteErrorMessage,
  lookupUsers,
  type LookupUser,
} from '../../api/access.ts';
import { useToast } from '../feedback/feedback.tsx';

/** Looks people up as the author types: after a 300 ms pause, the last query wins. */
function useLookup(text: string): LookupUser[] {
  const [results, setResults] = useState<{ q: string; users: LookupUser[] }>({ q: '', users: [] });
  const q = text.trim().replace(/^@/, '');
  // An address is never looked up (the lookup never matches on e-mail anyway).
  const searchable = q.length > 0 && !q.includes('@');

  useEffect(() => {
    if (!searchable) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      lookupUsers(q, controller.signal)
        .then((users) => setResults({ q, users }))
        .catch(() => setResults({ q, users: [] }));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, searchable]);

  return searchable && results.q === q ? results.users : [];
}

/**
 * "Invite someone": a handle (with suggestions from /profile/lookup) or an e-mail address,
 * sent with POST /manuscript/:id/invite/user. Every failure says what SPEC §8 says.
 */
export function UserInviteForm({
  manuscriptId,
  onInvited,
}: {
  manuscriptId: number;
  onInvited: (invite: Invite) => void;
}) {
  const id = useId();
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const suggestions = useLookup(text);
  const listOpen = open && suggestions.length > 0;
  const listId = `${id}-suggestions`;

  const pick = (user: LookupUser) => {
    setText(user.handle ? `@${user.handle}` : user.display_name);
    setOpen(false);
    setActive(-1);
    inputRef.current?.focus();
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!listOpen) {
      if (event.key === 'ArrowDown' && suggestions.length) {
        setOpen(true);
        setActive(0);
        event.preventDefault();
      }
      return;
    }
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((current) => (current + 1) % suggestions.length);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((current) => (current <= 0 ? suggestions.length - 1 : current - 1));
    } else if (event.key === 'Enter' && active >= 0 && suggestions[active]) {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === 'Escape') {
      // Closes the list, not the dialog around the form.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    }
  };

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setOpen(false);
    if (!text.trim()) {
      setMessage({ tone: 'error', text: MESSAGES.enterUserOrEmail });
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const invite = await inviteByUserOrEmail(manuscriptId, text);
      const who = invite.user
        ? `${invite.user.display_name}${invite.user.handle ? ` (@${invite.user.handle})` : ''}`
        : (invite.email ?? text.trim());
      setMessage({
        tone: 'success',
        text: invite.user
          ? invite.status === 'approved'
            ? `${who} asked for access: now approved.`
            : `Invited ${who}. They will find the invite on their dashboard.`
          : `Invite e-mailed to ${who}. They will find it on their dashboard (after signing up, if they are new here).`,
      });
      setText('');
      toast(MESSAGES.accessUpdated);
      onInvited(invite);
    } catch (error) {
      setMessage({ tone: 'error', text: inviteErrorMessage(error) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void handleSubmit(event)} noValidate aria-label="Invite someone">
      <label htmlFor={`${id}-input`} className="field-label">
        Handle or e-mail address
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <div className="relative min-w-0 flex-1">
          <input
            ref={inputRef}
            id={`${id}-input`}
            name="username"
            type="text"
            autoComplete="off"
            spellCheck={false}
            placeholder="@handle or name@example.com"
            className="field-input"
            value={text}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={listOpen}
            aria-controls={listId}
            aria-activedescendant={listOpen && active >= 0 ? `${listId}-${active}` : undefined}
            aria-invalid={message?.tone === 'error' ? true : undefined}
            aria-describedby={message ? `${id}-message` : undefined}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(-1);
              setMessage(null);
            }}
            onKeyDown={handleKeyDown}
            onBlur={() => setOpen(false)}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label="People"
            hidden={!listOpen}
            className="absolute inset-x-0 top-full z-10 mt-1 max-h-60 overflow-y-auto rounded-lg border border-line bg-surface py-1 shadow-lift"
          >
            {suggestions.map((user, index) => (
              <li
                key={user.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={`flex cursor-pointer items-baseline gap-2 px-3 py-2 text-sm ${
                  index === active ? 'bg-accent-soft' : 'hover:bg-sunken'
                }`}
                // Before the input's blur closes the list.
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(user);
                }}
              >
                <span className="font-medium">{user.display_name}</span>
                {user.handle ? <span className="text-muted">@{user.handle}</span> : null}
              </li>
            ))}
          </ul>
        </div>
        <button type="submit" className="btn btn-primary shrink-0" disabled={busy}>
          {busy ? 'Inviting…' : 'Invite'}
        </button>
      </div>
      {message ? (
        <p
          id={`${id}-message`}
          role={message.tone === 'error' ? 'alert' : 'status'}
          data-invite-message={message.tone}
          className={`mt-2 text-sm ${message.tone === 'error' ? 'text-danger' : 'text-success'}`}
        >
          {message.text}
        </p>
      ) : null}
    </form>
  );
}
