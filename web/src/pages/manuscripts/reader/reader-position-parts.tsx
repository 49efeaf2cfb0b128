// The parts of the reader page that follow the reading position frame by frame (issue 18):
// each subscribes to the position store itself, so a scrolled frame renders them alone, not
// the page around them.
import type { ComponentProps } from 'react';
import { ReaderAccessTools } from '../../../components/access/reader-access.tsx';
import { progressStep, usePositionValue, type PositionStore } from './use-reading-position.ts';

/** The reading progress bar under the site header. */
export function ReadingProgressBar({ store }: { store: PositionStore }) {
  const progress = usePositionValue(store, progressStep);
  return (
    <div
      className="fixed inset-x-0 top-16 z-20 h-[3px] bg-line/50"
      role="progressbar"
      aria-label="Reading progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress * 100)}
      data-reading-progress
    >
      <div
        className="h-full origin-left bg-accent transition-transform duration-150 ease-out"
        style={{ transform: `scaleX(${progress})` }}
      />
    </div>
  );
}

/** The reader's access tools, with the position their progress reports need. */
export function PositionedAccessTools({
  store,
  ...props
}: { store: PositionStore } & Omit<
  ComponentProps<typeof ReaderAccessTools>,
  'blockIndex' | 'progress'
>) {
  const blockIndex = usePositionValue(store, (position) => position.blockIndex);
  const progress = usePositionValue(store, progressStep);
  return <ReaderAccessTools {...props} blockIndex={blockIndex} progress={progress} />;
}
