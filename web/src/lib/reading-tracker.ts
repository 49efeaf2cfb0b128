import { READING_IDLE_MS, READING_MIN_DWELL_MS } from '@margins/common';

/** Reading time of one block, ready to report. */
export interface BlockTime {
  id: string;
  ms: number;
}

/**
 * Counts the time each block of the text is on screen while the reader is actually reading:
 * the tab visible and some scroll, key, pointer or touch within READING_IDLE_MS. Time is
 * shared between the blocks on screen (five paragraphs in view for a minute are a minute of
 * reading, not five). Pure (the clock is passed in), so it is tested without a browser.
 *
 * A block is reported once it has left the screen (its whole stay in one report; the server
 * counts a block's time only the first time it is seen), or when the page is hidden; a block
 * on screen (while reading) for less than READING_MIN_DWELL_MS was scrolled past and is not
 * reported.
 */
export class ReadingTracker {
  private readonly onScreen = new Set<string>();
  private readonly pending = new Map<string, number>();
  /** Active time each block has been on screen (not shared): what decides "scrolled past". */
  private readonly stayed = new Map<string, number>();
  private pageVisible = true;
  private lastActivity: number;
  private lastTick: number;

  constructor(
    private readonly now: () => number,
    private readonly idleMs = READING_IDLE_MS,
  ) {
    this.lastActivity = now();
    this.lastTick = this.lastActivity;
  }

  /** A block came into view or left it. */
  setBlockVisible(id: string, visible: boolean): void {
    this.accrue();
    if (visible) this.onScreen.add(id);
    else this.onScreen.delete(id);
  }

  /** The tab was shown or hidden (a hidden tab counts nothing). */
  setPageVisible(visible: boolean): void {
    this.accrue();
    this.pageVisible = visible;
    if (visible) this.lastActivity = this.now();
  }

  /** The reader did something (scroll, key, pointer, touch): not idle. */
  activity(): void {
    this.accrue();
    this.lastActivity = this.now();
  }

  /** The blocks that have left the screen, with their time; they are forgotten here. */
  takeFinished(): BlockTime[] {
    this.accrue();
    return this.take((id) => !this.onScreen.has(id));
  }

  /** Every block with time, on screen or not (the page is going away). */
  takeAll(): BlockTime[] {
    this.accrue();
    return this.take(() => true);
  }

  private take(which: (id: string) => boolean): BlockTime[] {
    const taken: BlockTime[] = [];
    for (const [id, ms] of this.pending) {
      if (!which(id)) continue;
      this.pending.delete(id);
      const stayed = this.stayed.get(id) ?? 0;
      this.stayed.delete(id);
      if (stayed >= READING_MIN_DWELL_MS) taken.push({ id, ms: Math.round(ms) });
    }
    return taken;
  }

  /** Adds the reading time since the last change to the blocks on screen. */
  private accrue(): void {
    const now = this.now();
    const from = this.lastTick;
    this.lastTick = now;
    if (!this.pageVisible || this.onScreen.size === 0) return;
    const activeUntil = Math.min(now, this.lastActivity + this.idleMs);
    const counted = activeUntil - from;
    if (counted <= 0) return;
    const share = counted / this.onScreen.size;
    for (const id of this.onScreen) {
      this.pending.set(id, (this.pending.get(id) ?? 0) + share);
      this.stayed.set(id, (this.stayed.get(id) ?? 0) + counted);
    }
  }
}
