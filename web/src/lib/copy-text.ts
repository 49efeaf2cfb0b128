/**
 * Copies text to the clipboard: the Clipboard API where the browser offers it, else the old
 * select-and-copy through a hidden textarea (plain http on a LAN address, older browsers).
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, focus): the fallback below may still work.
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  area.style.pointerEvents = 'none';
  document.body.appendChild(area);
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  previous?.focus({ preventScroll: true });
  return copied;
}

/** Copies text or throws when the browser refuses (callers show their own message). */
export async function copyTextOrThrow(text: string): Promise<void> {
  if (!(await copyText(text))) throw new Error('Copy refused');
}
