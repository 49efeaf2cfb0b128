import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { matchPath, useLocation } from 'react-router';
import { readerResponse, type ReaderResponse } from '@margins/common';
import { api } from '../../../api/client.ts';
import { commentsQuery } from '../../../api/comments.ts';
import { readerUrl } from '../../../api/manuscripts.ts';
import { usePageConfig } from '../../../page-config.ts';

const READER_PATH = '/manuscript/document/reader/:manuscript_id';
const WORDS_PER_MINUTE = 250;

/**
 * The reader's data: the page's own, or fetched as JSON after an in-app navigation — and when
 * the page leaves the text to the JSON answer (`text_from_json`: the browser keeps that answer
 * and revalidates it, so a returning reader gets a 304 instead of the book again).
 */
export function useReaderData(): { view: ReaderResponse | null; loading: boolean } {
  const { data } = usePageConfig();
  const { pathname } = useLocation();
  const fromPage = readerResponse.safeParse(data);
  const complete = fromPage.success && fromPage.data.text_from_json !== true;
  const manuscriptId = Number(matchPath(READER_PATH, pathname)?.params.manuscript_id);
  const query = useQuery({
    queryKey: ['reader', manuscriptId],
    // `?format=json`: the same answer, under its own key in the browser's cache — the page at
    // the bare URL is `no-store`, and a browser keeps one entry per URL, so it would drop the
    // cached text each time the page loads (and a returning reader would get it all again).
    queryFn: async () =>
      readerResponse.parse(await api.get(`${readerUrl(manuscriptId)}?format=json`)),
    enabled: !complete && Number.isInteger(manuscriptId) && manuscriptId > 0,
  });
  // Where the text shows at once, its comments are asked for now, with the text (which the
  // server's page preloads: manuscripts routes.ts), not once the text is in (issue 18).
  const queryClient = useQueryClient();
  const commentsEarly =
    fromPage.success &&
    fromPage.data.text_from_json === true &&
    !fromPage.data.restricted_mature &&
    !fromPage.data.restricted_moderation;
  useEffect(() => {
    if (commentsEarly) void queryClient.prefetchQuery(commentsQuery(manuscriptId));
  }, [commentsEarly, queryClient, manuscriptId]);
  if (complete) return { view: fromPage.data, loading: false };
  return { view: query.data ?? null, loading: query.isPending && query.fetchStatus !== 'idle' };
}

/** What a bookmark shows for a block: its text, or what stands for a textless block. */
export function blockText(block: Element | undefined): string {
  if (!block) return '';
  const text = block.textContent?.replace(/\s+/g, ' ').trim();
  if (text) return text;
  if (block.matches('hr')) return '* * *';
  return block.querySelector('img')?.getAttribute('alt') || 'Image';
}

/** "about 12 min read", or hours and minutes for a book. */
export function readingTime(words: number): string {
  const minutes = Math.max(1, Math.round(words / WORDS_PER_MINUTE));
  if (minutes < 60) return `about ${minutes} min read`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return `about ${hours} h${rest ? ` ${rest} min` : ''} read`;
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function'
    ? window.matchMedia('(prefers-reduced-motion: reduce)').matches
    : false;
}

/** Frames a jump's target is held in its place once the scroll has ended (about half a second). */
const HOLD_FRAMES = 30;

/**
 * Keeps a block where a jump put it while the blocks around it are laid out for the first time
 * (content-visibility): the browser's scroll anchoring keeps the block at the window's top in
 * place, and when that is the end of the passage above the target, its new size moved the
 * target off screen (issue 18: a jump from the contents landed 230 px off). Stops at the
 * reader's first scroll of their own.
 */
function holdInPlace(element: HTMLElement) {
  const wanted = element.getBoundingClientRect().top;
  let frames = 0;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };
  const inputs = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  for (const type of inputs) window.addEventListener(type, stop, { once: true, passive: true });
  const keep = () => {
    if (stopped || !element.isConnected) return;
    const drift = element.getBoundingClientRect().top - wanted;
    if (Math.abs(drift) > 1) window.scrollBy(0, drift);
    if (++frames < HOLD_FRAMES) window.requestAnimationFrame(keep);
    else for (const type of inputs) window.removeEventListener(type, stop);
  };
  window.requestAnimationFrame(keep);
}

/** Scrolls a block under the header and gives it the focus (for keyboard and screen readers). */
export function jumpTo(element: HTMLElement | null | undefined) {
  if (!element) return;
  const smooth = !prefersReducedMotion();
  element.scrollIntoView?.({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
  // Blocks laid out for the first time on the way (content-visibility) may move the target
  // while the smooth scroll runs: once it ends, the block is put in its place again.
  if (smooth && 'onscrollend' in window) {
    const settle = () => {
      element.scrollIntoView?.({ block: 'start', behavior: 'auto' });
      holdInPlace(element);
    };
    window.addEventListener('scrollend', settle, { once: true });
    window.setTimeout(() => window.removeEventListener('scrollend', settle), 3_000);
  } else {
    holdInPlace(element);
  }
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus({ preventScroll: true });
}
