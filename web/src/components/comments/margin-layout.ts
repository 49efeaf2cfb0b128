import { COMMENT_CONTROLLER_OFFSET_PX } from '@margins/common';

/** A thread card to place: where its passage is (column coordinates) and how tall it is. */
export interface CardBox {
  id: string;
  anchor: number;
  height: number;
}

/**
 * Places cards beside their passages without overlap, COMMENT_CONTROLLER_OFFSET_PX apart.
 * The active card sits exactly at its passage; the cards before it move up out of its way,
 * the ones after it move down. Cards must come in document order. Returns id → top.
 */
export function stackCards(
  cards: readonly CardBox[],
  activeId: string | null = null,
  gap: number = COMMENT_CONTROLLER_OFFSET_PX,
): Map<string, number> {
  const tops = new Array<number>(cards.length);
  const pivot = activeId === null ? -1 : cards.findIndex((card) => card.id === activeId);
  const pushDown = (from: number) => {
    for (let index = from; index < cards.length; index++) {
      const card = cards[index]!;
      const previous = index > 0 ? tops[index - 1]! + cards[index - 1]!.height + gap : -Infinity;
      tops[index] = Math.max(card.anchor, previous);
    }
  };
  if (pivot <= 0) {
    pushDown(0);
  } else {
    tops[pivot] = cards[pivot]!.anchor;
    for (let index = pivot - 1; index >= 0; index--) {
      const card = cards[index]!;
      tops[index] = Math.min(card.anchor, tops[index + 1]! - gap - card.height);
    }
    pushDown(pivot + 1);
    // No room above the first card: then everything flows down from the top instead.
    if (tops[0]! < 0) {
      tops[0] = Math.max(0, cards[0]!.anchor);
      pushDown(1);
    }
  }
  return new Map(cards.map((card, index) => [card.id, tops[index]!]));
}

/**
 * Which cards are in view, and how many are hidden above and below it. The `kept` card (the
 * active one: its open editor holds what is being typed) stays mounted wherever it is.
 */
export function visibleCards(
  cards: readonly CardBox[],
  tops: ReadonlyMap<string, number>,
  view: { top: number; bottom: number },
  buffer = 0,
  kept: string | null = null,
): { shown: CardBox[]; above: CardBox[]; below: CardBox[] } {
  const shown: CardBox[] = [];
  const above: CardBox[] = [];
  const below: CardBox[] = [];
  for (const card of cards) {
    const top = tops.get(card.id) ?? card.anchor;
    const bottom = top + card.height;
    if (bottom < view.top) above.push(card);
    else if (top > view.bottom) below.push(card);
    if (card.id === kept || (bottom >= view.top - buffer && top <= view.bottom + buffer)) {
      shown.push(card);
    }
  }
  return { shown, above, below };
}

/** A stretch of the margin layer, in layer coordinates. */
export interface Band {
  top: number;
  bottom: number;
}

/**
 * The stretch whose cards are mounted: the window and one screen either side, kept until the
 * window comes within half a screen of its edge (issue 18). Cards then mount and unmount a
 * batch at a time, not a few on every scrolled frame.
 */
export function mountBand(band: Band | null, view: Band): Band {
  const screen = Math.max(1, view.bottom - view.top);
  if (band && view.top - band.top >= screen / 2 && band.bottom - view.bottom >= screen / 2) {
    return band;
  }
  return { top: view.top - screen, bottom: view.bottom + screen };
}
