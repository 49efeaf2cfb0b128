import { useSyncExternalStore } from 'react';

/** Which author popup is open (one at a time across the page), by its owner's key. */
let openKey: string | null = null;
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export const authorPopupStore = {
  get: (): string | null => openKey,
  open(key: string) {
    if (openKey === key) return;
    openKey = key;
    emit();
  },
  /** Closes the popup; with a key, only if that one is still the open one. */
  close(key?: string) {
    if (openKey === null || (key !== undefined && openKey !== key)) return;
    openKey = null;
    emit();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** True while the popup with this key is the open one. */
export function useIsPopupOpen(key: string): boolean {
  return useSyncExternalStore(
    authorPopupStore.subscribe,
    () => authorPopupStore.get() === key,
    () => false,
  );
}
