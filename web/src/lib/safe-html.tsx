import { createElement, Fragment, type ReactNode } from 'react';
import { linkify } from './linkify.tsx';

/** Elements kept (everything else is unwrapped to its text, or dropped when dangerous). */
const KEPT = new Set([
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'div',
  'em',
  'h1',
  'h2',
  'h3',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'pre',
  'span',
  'strong',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
]);
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'template',
  'head',
  'title',
]);
const VOID = new Set(['br', 'hr']);

function safeHref(href: string | null): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, window.location.href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function convert(node: Node, key: string, inLink = false): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) {
    const text = node.textContent ?? '';
    // Bare addresses in the text become links too, as in the plain-text view.
    return inLink ? text : createElement(Fragment, { key }, ...linkify(text));
  }
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const tag = element.tagName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const children = Array.from(element.childNodes, (child, index) =>
    convert(child, `${key}.${index}`, inLink || tag === 'a'),
  );
  if (!KEPT.has(tag)) return children;
  if (VOID.has(tag)) return createElement(tag, { key });
  if (tag === 'a') {
    return createElement('a', { key, href: safeHref(element.getAttribute('href')) }, ...children);
  }
  return createElement(tag, { key }, ...children);
}

/**
 * An HTML fragment (a mail body) as React elements: an allow-list of tags, no attributes
 * but http(s)/mailto link targets, no scripts or styles. Never uses innerHTML on the page.
 */
export function renderSafeHtml(html: string): ReactNode {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  return Array.from(parsed.body.childNodes, (child, index) => convert(child, String(index)));
}
