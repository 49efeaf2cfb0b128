// The parts of the reader page that follow the reading position frame by frame (issue 18):
// each subscribes to the position store itself, so a scrolled frame renders them alone, not
// the page around them.
import { useEffect, useRef, type ComponentProps } from 'react';
import { ReaderAccessTools } from '../../../components/access/reader-access.tsx';
import { progressStep, usePositionValue, type PositionStore } from './use-reading-position.ts';

/**
 * The reading progress bar under the site header. It moves on almost every scrolled frame, so
 * it is drawn from the store's subscription straight onto its element: no React render at all.
 */
export function ReadingProgressBar({ store }: { store: PositionStore }) {
  const barRef = useRef<HTMLDivElement>(null);
  const fillRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let shown = -1;
    let percent = -1;
    const draw = () => {
      const progress = progressStep(store.get());
      if (progress === shown || !barRef.current || !fillRef.current) return;
      shown = progress;
      // The fill is a layer of its own (will-change): a new transform moves it in the
      // compositor, with no style, layout or paint of the page. No transition: one started on
      // every scrolled frame cost a style pass of its own each frame (issue 18).
      fillRef.current.style.transform = `scaleX(${progress})`;
      const rounded = Math.round(progress * 100);
      if (rounded === percent) return;
      percent = rounded;
      barRef.current.setAttribute('aria-valuenow', String(rounded));
    };
    draw();
    return store.subscribe(draw);
  }, [store]);
  return (
    <div
      ref={barRef}
      className="fixed inset-x-0 top-16 z-20 h-[3px] bg-line/50"
      role="progressbar"
      aria-label="Reading progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={0}
      data-reading-progress
    >
      <div
        ref={fillRef}
        className="h-full origin-left bg-accent will-change-transform"
        style={{ transform: 'scaleX(0)' }}
      />
    </div>
  );
}

/** Whole percents read: renders alone when the percent changes (the sidebar, the bottom bar). */
export function PercentRead({ store }: { store: PositionStore }) {
  return usePositionValue(store, (at) => Math.round(at.progress * 100));
}

/**
 * The reader's access tools, with the position their progress reports need — only a logged-in
 * reader's (the recorder, the offer at the end): for the author or a visitor they never render
 * again on a move.
 */
export function PositionedAccessTools({
  store,
  ...props
}: { store: PositionStore } & Omit<
  ComponentProps<typeof ReaderAccessTools>,
  'blockIndex' | 'progress'
>) {
  const follows = !props.isAuthor && props.userId !== null;
  const blockIndex = usePositionValue(store, (position) => (follows ? position.blockIndex : -1));
  const progress = usePositionValue(store, (position) => (follows ? progressStep(position) : 0));
  return <ReaderAccessTools {...props} blockIndex={blockIndex} progress={progress} />;
}
