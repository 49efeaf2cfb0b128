import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { FLASH_TIMEOUT_MS, TOAST_DELAY_MS } from '@margins/common';

/** How long a flash takes to fade out once its time is up. */
export const FLASH_FADE_MS = 400;

interface Notice {
  id: number;
  message: string;
  leaving: boolean;
}

interface FeedbackApi {
  flash: (message: string) => void;
  toast: (message: string) => void;
}

const FeedbackContext = createContext<FeedbackApi | null>(null);

function useFeedback(): FeedbackApi {
  const value = useContext(FeedbackContext);
  if (!value) throw new Error('useFlash and useToast need a <FeedbackProvider>.');
  return value;
}

/** Shows a red, dismissible error message that fades after FLASH_TIMEOUT_MS. */
export function useFlash(): (message: string) => void {
  return useFeedback().flash;
}

/** Shows a short success message that goes away after TOAST_DELAY_MS. */
export function useToast(): (message: string) => void {
  return useFeedback().toast;
}

let nextId = 1;

/** Holds the global flash messages and toasts and renders their areas. */
export function FeedbackProvider({ children }: { children: ReactNode }) {
  const [flashes, setFlashes] = useState<Notice[]>([]);
  const [toasts, setToasts] = useState<Notice[]>([]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());

  const later = useCallback((run: () => void, delay: number) => {
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      run();
    }, delay);
    timers.current.add(timer);
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const dismissFlash = useCallback((id: number) => {
    setFlashes((current) => current.filter((notice) => notice.id !== id));
  }, []);

  const flash = useCallback(
    (message: string) => {
      const id = nextId++;
      // The same message twice in a row shows once, with a fresh timer.
      setFlashes((current) => [
        ...current.filter((notice) => notice.message !== message),
        { id, message, leaving: false },
      ]);
      later(() => {
        setFlashes((current) =>
          current.map((notice) => (notice.id === id ? { ...notice, leaving: true } : notice)),
        );
        later(() => dismissFlash(id), FLASH_FADE_MS);
      }, FLASH_TIMEOUT_MS);
    },
    [later, dismissFlash],
  );

  const toast = useCallback(
    (message: string) => {
      const id = nextId++;
      setToasts((current) => [...current.slice(-2), { id, message, leaving: false }]);
      later(
        () => setToasts((current) => current.filter((notice) => notice.id !== id)),
        TOAST_DELAY_MS,
      );
    },
    [later],
  );

  const api = useMemo(() => ({ flash, toast }), [flash, toast]);

  return (
    <FeedbackContext.Provider value={api}>
      <div
        className="pointer-events-none fixed inset-x-0 top-[4.75rem] z-50 flex flex-col items-center gap-2 px-3"
        aria-live="assertive"
        data-testid="flash-area"
      >
        {flashes.map((notice) => (
          <div
            key={notice.id}
            role="alert"
            data-flash
            data-leaving={notice.leaving || undefined}
            className={`pointer-events-auto flex w-full max-w-xl items-start gap-3 rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger shadow-lift transition-opacity duration-400 ${
              notice.leaving ? 'opacity-0' : 'opacity-100'
            }`}
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="mt-0.5 size-4 shrink-0 fill-current"
            >
              <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm-.9 4.5h1.8v5.2H9.1V6Zm.9 8.6a1.1 1.1 0 1 1 0-2.2 1.1 1.1 0 0 1 0 2.2Z" />
            </svg>
            <p className="flex-1 font-medium">{notice.message}</p>
            <button
              type="button"
              onClick={() => dismissFlash(notice.id)}
              className="-my-1 -mr-2 cursor-pointer rounded-full p-1 text-danger hover:bg-danger/10"
              aria-label="Dismiss"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
                <path d="M5.3 4.2 10 8.9l4.7-4.7 1.1 1.1-4.7 4.7 4.7 4.7-1.1 1.1-4.7-4.7-4.7 4.7-1.1-1.1 4.7-4.7-4.7-4.7 1.1-1.1Z" />
              </svg>
            </button>
          </div>
        ))}
      </div>
      {children}
      <div
        className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-3 sm:right-4 sm:left-auto sm:items-end"
        role="status"
        aria-live="polite"
        data-testid="toast-area"
      >
        {toasts.map((notice) => (
          <div
            key={notice.id}
            data-toast
            className="pointer-events-auto flex items-center gap-2 rounded-full border border-success/30 bg-success-soft px-4 py-2.5 text-sm font-medium text-success shadow-lift"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d="M8 13.2 4.4 9.6l-1.2 1.2L8 15.6l9-9-1.2-1.2L8 13.2Z" />
            </svg>
            {notice.message}
          </div>
        ))}
      </div>
    </FeedbackContext.Provider>
  );
}
