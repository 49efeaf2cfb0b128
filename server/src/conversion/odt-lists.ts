// Word processors number chapter headings by putting them in a numbered list. In HTML a heading
// inside a list item would vanish from the table of contents, so the list is cut around it.
import type { Element, ElementContent } from 'hast';
import { element } from './normalise/hast.ts';

/** The list as it is, or cut into lists and the headings between them. */
export function splitListAtHeadings(list: Element): Element[] {
  return containsHeading(list) ? splitList(list) : [list];
}

function splitList(list: Element): Element[] {
  const result: Element[] = [];
  const firstNumber = typeof list.properties.start === 'number' ? list.properties.start : 1;
  let itemsStarted = 0;
  let current = element(list.tagName, { ...list.properties });
  let item = element('li');

  const closeItem = () => {
    if (item.children.length > 0) current.children.push(item);
    item = element('li');
  };
  // A heading takes the number of the item it stands in: the list goes on after it.
  const cutAt = (heading: Element) => {
    closeItem();
    if (current.children.length > 0) result.push(current);
    result.push(heading);
    const start = firstNumber + itemsStarted;
    current = element(list.tagName, list.tagName === 'ol' && start !== 1 ? { start } : {});
  };

  for (const listItem of list.children) {
    if (listItem.type !== 'element') continue;
    itemsStarted += 1;
    for (const child of listItem.children) {
      if (child.type === 'element' && isHeading(child)) {
        cutAt(child);
      } else if (isList(child) && containsHeading(child)) {
        for (const piece of splitList(child)) {
          if (isList(piece)) item.children.push(piece);
          else cutAt(piece);
        }
      } else {
        item.children.push(child);
      }
    }
    closeItem();
  }
  if (current.children.length > 0) result.push(current);
  return result;
}

function containsHeading(node: Element): boolean {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (isHeading(child)) return true;
    if ((child.tagName === 'li' || isList(child)) && containsHeading(child)) return true;
  }
  return false;
}

function isHeading(node: ElementContent): boolean {
  return node.type === 'element' && /^h[1-6]$/.test(node.tagName);
}

function isList(node: ElementContent): node is Element {
  return node.type === 'element' && (node.tagName === 'ul' || node.tagName === 'ol');
}
