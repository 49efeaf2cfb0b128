import { describe, expect, it } from 'vitest';
import { PositionReport } from './reading-position.ts';

describe('PositionReport', () => {
  it('sends the position only when the reader got further than last sent', () => {
    const report = new PositionReport();
    expect(report.take()).toBeUndefined(); // nothing noted yet
    report.note(-1, 0); // no block in view yet
    expect(report.take()).toBeUndefined();
    report.note(3, 0.1234);
    expect(report.take()).toEqual({ block_idx: 3, percent: 12.3 });
    expect(report.take()).toBeUndefined(); // already sent
    report.note(1, 0.05); // scrolled back
    expect(report.take()).toBeUndefined();
    report.note(9, 0.4);
    expect(report.take()).toEqual({ block_idx: 9, percent: 40 });
  });

  it('keeps the furthest of each part, and the percent within 0–100', () => {
    const report = new PositionReport();
    report.note(10, 0.5);
    report.take();
    // A longer block further on can be a lower percent of a page that grew: both kept furthest.
    report.note(12, 0.45);
    expect(report.take()).toEqual({ block_idx: 12, percent: 50 });
    report.note(13, 1.2);
    expect(report.take()).toEqual({ block_idx: 13, percent: 100 });
  });
});
