import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RESIZE_DEBOUNCE_MS } from '@margins/common';
import { fetchHeat, insightsKeys } from '../../api/insights.ts';
import { whenLaidOut } from '../../lib/laid-out.ts';
import { textBlocks } from './use-reading-recorder.ts';

interface Mark {
  id: string;
  top: number;
  height: number;
  /** 0–1: this block's highlights and comments against the busiest block's. */
  heat: number;
  label: string;
}

/**
 * The author's heat strip (issue 15): a thin column beside the text, darker where readers'
 * highlights and comments cluster. Placed by the blocks' own positions (so it follows the
 * layout), measured again when the text box changes size.
 */
export function HeatStrip({ manuscriptId, html }: { manuscriptId: number; html: string }) {
  const query = useQuery({
    queryKey: insightsKeys.heat(manuscriptId),
    queryFn: () => fetchHeat(manuscriptId),
  });
  const [marks, setMarks] = useState<Mark[]>([]);
  const [left, setLeft] = useState(0);

  useEffect(() => {
    const box = document.querySelector<HTMLElement>('[data-testid="reader-box"]');
    const counts = query.data?.blocks ?? [];
    if (!box || counts.length === 0) return;
    const byId = new Map(counts.map((block) => [block.id, block]));
    const busiest = Math.max(...counts.map((block) => block.highlights + block.comments), 1);
    const measure = () => {
      setLeft(box.offsetLeft);
      setMarks(
        textBlocks(box).flatMap((element) => {
          const block = byId.get(element.id);
          if (!block) return [];
          return [
            {
              id: element.id,
              top: element.offsetTop,
              height: element.offsetHeight,
              heat: (block.highlights + block.comments) / busiest,
              label: `${block.highlights} highlights, ${block.comments} comments`,
            },
          ];
        }),
      );
    };
    // A book is laid out a part at a time (use-progressive-layout.ts): measured once it all is
    // (a lazy block's place is known only by laying it out on the spot), then again when the
    // box changes size, once it has settled.
    let cancel = whenLaidOut(box, measure);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        cancel();
        cancel = whenLaidOut(box, measure);
      }, RESIZE_DEBOUNCE_MS);
    });
    observer.observe(box);
    return () => {
      cancel();
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [query.data, html]);

  if (marks.length === 0) return null;
  // The marks are in the strip's flow, each after a gap, not each positioned: an absolutely
  // placed or translucent box is a paint layer of its own, and a book's 2,000 of them were
  // walked by the browser on every scrolled frame (issue 18). Their strength is their colour.
  let placedEnd = 0;
  return (
    <div
      aria-hidden="true"
      data-testid="heat-strip"
      className="pointer-events-none absolute top-0 flex w-1.5 flex-col"
      style={{ left: left - 14 }}
    >
      {marks.map((mark) => {
        const gap = Math.max(0, mark.top - placedEnd);
        placedEnd += gap + mark.height;
        return (
          <span
            key={mark.id}
            title={mark.label}
            data-heat={mark.heat}
            className="pointer-events-auto w-full shrink-0 rounded-full"
            style={{
              marginTop: gap,
              height: mark.height,
              backgroundColor: heatColour(mark.heat),
            }}
          />
        );
      })}
    </div>
  );
}

/** The accent, stronger where the heat is: from 15 % for the coolest block to full. */
function heatColour(heat: number): string {
  return `color-mix(in srgb, var(--color-accent) ${Math.round(15 + 85 * heat)}%, transparent)`;
}
