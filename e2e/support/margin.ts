// Where the reader's margin puts its cards, read from the page (issue 18's e2e): the gap
// between each card and its passage, the "N more" counts, the margin's compositor layers.
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/**
 * The page's compositor layers in the margin column, apart from its sticky bars (Chromium's
 * LayerTree, through the DevTools protocol), each as its element's tag and data-thread or class.
 */
export async function marginLayers(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('DOM.getDocument', { depth: -1 });
    const tree = new Promise<Array<{ backendNodeId?: number }>>((resolve) => {
      cdp.on('LayerTree.layerTreeDidChange', (event) => {
        if (event.layers) resolve(event.layers);
      });
    });
    await cdp.send('LayerTree.enable');
    // A frame so the tree is sent again.
    await page.evaluate(() => window.scrollBy(0, 1));
    const layers = await tree;
    const found: string[] = [];
    for (const layer of layers) {
      if (!layer.backendNodeId) continue;
      const { nodeIds } = await cdp.send('DOM.pushNodesByBackendIdsToFrontend', {
        backendNodeIds: [layer.backendNodeId],
      });
      const nodeId = nodeIds[0];
      if (!nodeId) continue;
      const inMargin = await cdp.send('DOM.resolveNode', { nodeId }).then(({ object }) =>
        cdp.send('Runtime.callFunctionOn', {
          objectId: object.objectId!,
          returnByValue: true,
          functionDeclaration:
            'function () { const el = this.nodeType === 1 ? this : this.parentElement; return el && el.closest("[data-margin-column]") && !el.closest(".sticky") ? el.tagName + " " + (el.getAttribute("data-thread") ?? el.className) : null; }',
        }),
      );
      if (typeof inMargin.result.value === 'string') found.push(inMargin.result.value);
    }
    return found;
  } finally {
    await cdp.detach();
  }
}

/** The paragraphs' text positions in the reader box (what a highlight is anchored by). */
export async function paragraphPositions(
  page: Page,
): Promise<Array<{ start: number; text: string; child: number }>> {
  return page.getByTestId('reader-box').evaluate((box) => {
    const found: Array<{ start: number; text: string; child: number }> = [];
    let at = 0;
    for (const [child, node] of Array.from(box.childNodes).entries()) {
      const text = node.textContent ?? '';
      if (node instanceof HTMLParagraphElement) found.push({ start: at, text, child });
      at += text.length;
    }
    return found;
  });
}

/**
 * Each margin card in the window against its passage's first mark: the gap between their tops
 * (cards stack 15 px apart, so with notes this sparse each sits at its passage).
 */
function cardGaps(page: Page): Promise<Array<{ id: string; gap: number }>> {
  return page.evaluate(() => {
    const gaps: Array<{ id: string; gap: number }> = [];
    for (const card of Array.from(
      document.querySelectorAll<HTMLElement>('[data-margin-layer] [data-thread]'),
    )) {
      const top = card.getBoundingClientRect().top;
      if (top < 80 || top > window.innerHeight - 40) continue;
      const mark = document.querySelector(`mark[data-hl="${card.dataset.thread}"]`);
      if (!mark) continue;
      gaps.push({
        id: card.dataset.thread!,
        gap: Math.round(top - mark.getBoundingClientRect().top),
      });
    }
    return gaps;
  });
}

export async function expectCardsBesidePassages(
  page: Page,
  step: string,
  note?: string,
): Promise<void> {
  // A note's passage in the middle of the window (instantly): some cards are in view. Blocks
  // laid out for the first time around it may still push it down: again until it stays.
  if (note) {
    const mark = page.locator(`mark[data-hl="${note}"]`).first();
    for (let attempt = 0; attempt < 4; attempt++) {
      await mark.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await page.waitForTimeout(250);
    }
  }
  await expect
    .poll(
      async () => {
        const gaps = await cardGaps(page);
        const astray = gaps.filter(({ gap }) => Math.abs(gap) > 3);
        if (gaps.length === 0) return 'no card in view';
        return astray.length === 0 ? 'beside' : JSON.stringify(astray);
      },
      { message: `${step}: every card in view is beside its passage`, timeout: 10_000 },
    )
    .toBe('beside');
}

/** "N more above/below" against the marks: a note is hidden when its passage is out of view. */
export async function expectShowMoreCounts(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const marks = await page.evaluate(() => {
          const tops = new Map<string, number>();
          for (const mark of Array.from(document.querySelectorAll<HTMLElement>('mark[data-hl]'))) {
            if (!tops.has(mark.dataset.hl!))
              tops.set(mark.dataset.hl!, mark.getBoundingClientRect().top);
          }
          return { tops: [...tops.values()], height: window.innerHeight };
        });
        const count = async (testId: string) => {
          const button = page.getByTestId(testId);
          if ((await button.count()) === 0) return 0;
          return Number(/(\d+)/.exec((await button.textContent()) ?? '')?.[1] ?? -1);
        };
        const above = await count('more-above');
        const below = await count('more-below');
        // A card hides once its bottom has gone under the header (72 px): a card's height of
        // leeway at the edges, exact everywhere else.
        const aboveLow = marks.tops.filter((top) => top < 72 - 250).length;
        const aboveHigh = marks.tops.filter((top) => top < 72).length;
        const belowLow = marks.tops.filter((top) => top > marks.height).length;
        const belowHigh = marks.tops.filter((top) => top > marks.height - 250).length;
        return (
          above >= aboveLow &&
          above <= aboveHigh &&
          below >= belowLow &&
          below <= belowHigh &&
          above + below > 0
        );
      },
      { message: '"N more above / below" count the notes out of view', timeout: 10_000 },
    )
    .toBe(true);
}
