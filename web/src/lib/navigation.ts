/** Loads a page from the server (so it gets its page data), leaving the app. */
export function loadPage(url: string): void {
  window.location.assign(url);
}

/** Loads the current page again from the server. */
export function reloadPage(): void {
  window.location.reload();
}
