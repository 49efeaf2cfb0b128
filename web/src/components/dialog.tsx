import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

/** Open dialogs, innermost last: only the top one answers Escape and holds the focus. */
const openDialogs: string[] = [];

const FOCUSABLE = [
  'a[href]',
  'area[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The elements inside a container that Tab can reach, in order. */
function focusableIn(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => !element.closest('[hidden], [inert]'),
  );
}

/**
 * Keeps Tab inside the container while it is the top dialog, closes on Escape, locks the
 * page's scroll, and gives the focus back to where it was when it closes.
 */
function useModalBehaviour(
  id: string,
  panelRef: RefObject<HTMLElement | null>,
  onClose: () => void,
  initialFocus: RefObject<HTMLElement | null> | undefined,
) {
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openDialogs.push(id);
    const isTop = () => openDialogs[openDialogs.length - 1] === id;
    const panel = panelRef.current;
    const first = initialFocus?.current ?? (panel ? focusableIn(panel)[0] : null) ?? panel;
    first?.focus({ preventScroll: true });

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    const handleKeyDown = (event: KeyboardEvent) => {
      if (!isTop() || !panel) return;
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const focusable = focusableIn(panel);
      if (focusable.length === 0) {
        event.preventDefault();
        panel.focus();
        return;
      }
      const firstElement = focusable[0];
      const lastElement = focusable[focusable.length - 1];
      const active = document.activeElement;
      if (event.shiftKey && (active === firstElement || active === panel)) {
        event.preventDefault();
        lastElement?.focus();
      } else if (!event.shiftKey && active === lastElement) {
        event.preventDefault();
        firstElement?.focus();
      }
    };
    // Focus that lands outside (a click on the page behind) comes back into the dialog.
    const handleFocusIn = (event: FocusEvent) => {
      if (!isTop() || !panel) return;
      const target = event.target as Node | null;
      if (target && !panel.contains(target)) (focusableIn(panel)[0] ?? panel).focus();
    };
    document.addEventListener('keydown', handleKeyDown, true);
    document.addEventListener('focusin', handleFocusIn);
    return () => {
      document.removeEventListener('keydown', handleKeyDown, true);
      document.removeEventListener('focusin', handleFocusIn);
      const index = openDialogs.lastIndexOf(id);
      if (index >= 0) openDialogs.splice(index, 1);
      if (openDialogs.length === 0) document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [id, panelRef, initialFocus]);
}

const CLOSE_ICON =
  'M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7 1.1-1.1Z';

/** The round × button of a dialog's corner. */
export function CloseButton({ onClick, label = 'Close' }: { onClick: () => void; label?: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="inline-flex size-9 shrink-0 cursor-pointer items-center justify-center rounded-full text-muted transition-colors hover:bg-sunken hover:text-ink"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
        <path d={CLOSE_ICON} />
      </svg>
    </button>
  );
}

const PANEL_CLASSES = {
  center:
    'relative my-auto w-full max-w-2xl rounded-2xl border border-line bg-surface shadow-lift sm:my-12',
  right:
    'relative ml-auto flex h-full w-full max-w-xl flex-col border-l border-line bg-surface shadow-lift sm:rounded-l-2xl',
  left: 'relative mr-auto flex h-full w-[min(22rem,88vw)] flex-col border-r border-line bg-surface shadow-lift',
} as const;

/**
 * A modal dialog: centred, or as a slide-over from the right or a drawer from the left.
 * The focus stays inside it, Escape and the backdrop close it, the title labels it.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  placement = 'center',
  size = 'max-w-2xl',
  initialFocus,
  hideTitle = false,
  testId,
}: {
  title: ReactNode;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  placement?: keyof typeof PANEL_CLASSES;
  /** The centred panel's largest width (a Tailwind max-w class). */
  size?: string;
  /** What gets the focus first; the first focusable element otherwise. */
  initialFocus?: RefObject<HTMLElement | null>;
  hideTitle?: boolean;
  testId?: string;
}) {
  const id = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  useModalBehaviour(id, panelRef, onClose, initialFocus);
  const titleId = `${id}-title`;
  const descriptionId = `${id}-description`;
  const centred = placement === 'center';

  return createPortal(
    <div
      className={`fixed inset-0 z-40 flex ${centred ? 'items-start justify-center overflow-y-auto px-3 py-6 sm:px-6' : ''}`}
      data-dialog-layer
    >
      <div
        aria-hidden="true"
        className="fixed inset-0 bg-ink/35 backdrop-blur-[2px] dark:bg-black/60"
        onClick={onClose}
        data-testid="dialog-backdrop"
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        data-testid={testId}
        className={`${PANEL_CLASSES[placement]} ${centred ? size : ''} focus:outline-none`}
      >
        <div
          className={`flex items-start justify-between gap-4 px-5 pt-5 sm:px-7 sm:pt-6 ${centred ? '' : 'border-b border-line pb-4'}`}
        >
          <div className="min-w-0">
            <h2
              id={titleId}
              className={`text-xl leading-snug font-semibold sm:text-2xl ${hideTitle ? 'sr-only' : ''}`}
            >
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="mt-1 text-sm text-muted">
                {description}
              </p>
            ) : null}
          </div>
          <CloseButton onClick={onClose} />
        </div>
        <div
          className={
            centred ? 'px-5 pt-4 pb-6 sm:px-7 sm:pb-7' : 'min-h-0 flex-1 overflow-y-auto px-5 py-5'
          }
        >
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}

/**
 * A yes/no question in a small dialog. The safe choice (cancel) has the focus first, so
 * Enter never confirms by accident.
 */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  tone = 'default',
  busy = false,
  onConfirm,
  onCancel,
}: {
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'default' | 'danger';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      size="max-w-md"
      initialFocus={cancelRef}
      testId="confirm-dialog"
    >
      {children ? <div className="font-serif leading-relaxed text-muted">{children}</div> : null}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button ref={cancelRef} type="button" className="btn btn-secondary" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`btn ${tone === 'danger' ? 'btn-danger' : 'btn-primary'}`}
          onClick={onConfirm}
          disabled={busy}
        >
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
