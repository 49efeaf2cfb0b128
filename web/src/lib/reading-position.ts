/** How far the reader got, as the server keeps it on the read. */
export interface ReadingPosition {
  block_idx: number;
  percent: number;
}

/**
 * The reader's furthest position, sent along with the reading batches (the reads list shows
 * it): only when it got further than last sent (the server keeps the furthest anyway, so going
 * back sends nothing). Pure, tested without a browser.
 */
export class PositionReport {
  private latest: ReadingPosition | null = null;
  private sent: ReadingPosition = { block_idx: -1, percent: -1 };

  /** Where the reader is now: the block in view (index) and the share of the text behind them (0–1). */
  note(blockIndex: number, progress: number): void {
    if (blockIndex < 0) return;
    this.latest = {
      block_idx: blockIndex,
      percent: Math.min(100, Math.max(0, Math.round(progress * 1000) / 10)),
    };
  }

  /** The position to send, if it is further than the last one sent; then counted as sent. */
  take(): ReadingPosition | undefined {
    const latest = this.latest;
    if (!latest) return undefined;
    if (latest.block_idx <= this.sent.block_idx && latest.percent <= this.sent.percent) {
      return undefined;
    }
    this.sent = {
      block_idx: Math.max(this.sent.block_idx, latest.block_idx),
      percent: Math.max(this.sent.percent, latest.percent),
    };
    return { ...this.sent };
  }
}
