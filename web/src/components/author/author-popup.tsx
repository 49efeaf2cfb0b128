import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { createPortal } from 'react-dom';
import { MESSAGES, type PublicUser } from '@margins/common';
import { Avatar } from '../avatar.tsx';
import { SocialLinks } from '../social-links.tsx';
import { authorPopupStore, useIsPopupOpen } from './popup-store.ts';

const GAP_PX = 8;
const EDGE_PX = 12;
const PHONE_WIDTH_PX = 640;

interface Placement {
  top: number;
  left: number;
  width: number;
}

/** Half the window wide (full width less the margins on phones), kept on screen. */
function placeBelow(trigger: HTMLElement): Placement {
  const rect = trigger.getBoundingClientRect();
  const viewport = document.documentElement.clientWidth || window.innerWidth;
  const width =
    viewport < PHONE_WIDTH_PX ? Math.max(viewport - EDGE_PX * 2, 0) : Math.round(viewport / 2);
  const maxLeft = Math.max(viewport - width - EDGE_PX, EDGE_PX);
  const left = Math.min(Math.max(rect.left, EDGE_PX), maxLeft) + window.scrollX;
  return { top: rect.bottom + window.scrollY + GAP_PX, left, width };
}

/**
 * An author's name that opens their popup card: picture, name, handle, pronouns, about,
 * social links three per row and a link to the public profile. One popup is open at a
 * time; a click elsewhere or Escape closes it; clicking the same name again keeps it open.
 */
export function AuthorPopup({
  author,
  children,
  className = '',
}: {
  author: PublicUser;
  /** What the trigger shows; the display name by default. */
  children?: ReactNode;
  className?: string;
}) {
  const key = useId();
  const open = useIsPopupOpen(key);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const cardRef = useRef<HTMLDivElement>(null);
  const [placement, setPlacement] = useState<Placement | null>(null);
  const cardId = `${key}-card`;

  const close = useCallback(
    (returnFocus: boolean) => {
      authorPopupStore.close(key);
      if (returnFocus) triggerRef.current?.focus();
    },
    [key],
  );

  useLayoutEffect(() => {
    if (!open || !triggerRef.current) return;
    const trigger = triggerRef.current;
    const place = () => setPlacement(placeBelow(trigger));
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open]);

  useEffect(() => {
    if (!open) return;
    cardRef.current?.focus({ preventScroll: true });
    const handleDocumentClick = (event: MouseEvent) => {
      const target = event.target as Node | null;
      if (target && (cardRef.current?.contains(target) || triggerRef.current?.contains(target))) {
        return;
      }
      // Another author's trigger may have opened its popup already: close only our own.
      authorPopupStore.close(key);
    };
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close(true);
    };
    document.addEventListener('click', handleDocumentClick);
    document.addEventListener('keydown', handleKeyDown);
    return () => {
      document.removeEventListener('click', handleDocumentClick);
      document.removeEventListener('keydown', handleKeyDown);
    };
  }, [open, key, close]);

  // Closes this popup if its trigger leaves the page while open.
  useEffect(() => () => authorPopupStore.close(key), [key]);

  const handle = author.handle ? `@${author.handle}` : MESSAGES.missingHandle;

  return (
    <>
      <button
        ref={triggerRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? cardId : undefined}
        onClick={() => authorPopupStore.open(key)}
        className={`cursor-pointer rounded text-left underline decoration-accent/40 decoration-dotted underline-offset-4 hover:decoration-accent ${className}`}
        data-author-id={author.id}
      >
        {children ?? author.display_name}
      </button>
      {open &&
        createPortal(
          <div
            ref={cardRef}
            id={cardId}
            role="dialog"
            aria-label={`About ${author.display_name}`}
            tabIndex={-1}
            data-author-popup={author.id}
            style={
              placement
                ? { top: placement.top, left: placement.left, width: placement.width }
                : { visibility: 'hidden' }
            }
            className="absolute z-40 rounded-2xl border border-line bg-surface p-5 text-left font-sans text-ink shadow-lift focus:outline-none sm:p-6"
          >
            <div className="flex items-start gap-4">
              <Avatar name={author.display_name} picture={author.picture} size="md" />
              <div className="min-w-0 flex-1">
                <p className="font-serif text-xl leading-tight font-semibold">
                  {author.display_name}
                </p>
                <p className="mt-0.5 truncate text-sm text-muted">
                  {handle}
                  {author.pronouns ? <span> · {author.pronouns}</span> : null}
                </p>
              </div>
              <button
                type="button"
                onClick={() => close(true)}
                className="-mt-1 -mr-2 cursor-pointer rounded-full p-1.5 text-muted hover:bg-sunken hover:text-ink"
                aria-label="Close"
              >
                <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
                  <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7 1.1-1.1Z" />
                </svg>
              </button>
            </div>
            <p
              className={`mt-4 font-serif leading-relaxed whitespace-pre-line ${author.about ? '' : 'text-muted italic'}`}
            >
              {author.about || MESSAGES.blankBio}
            </p>
            <div className="mt-4">
              <SocialLinks user={author} columns={3} />
            </div>
            <p className="mt-5 text-sm">
              <a href={`/profile/get/${author.id}`} className="font-semibold">
                View {author.display_name}’s profile →
              </a>
            </p>
          </div>,
          document.body,
        )}
    </>
  );
}
