import { describe, expect, it } from 'vitest';
import { handOver, take } from './upload-handoff.ts';

describe('the upload hand-over', () => {
  it('gives the bytes once, to the conversion they were stored for', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    handOver('conversion-a', bytes);
    expect(take('conversion-b')).toBeNull();
    expect(take('conversion-a')).toBe(bytes);
    expect(take('conversion-a')).toBeNull();
  });

  it('keeps no more than 64 MB: beyond, the job reads the database', () => {
    handOver('big', new Uint8Array(60 * 1024 * 1024));
    handOver('over', new Uint8Array(8 * 1024 * 1024));
    expect(take('over')).toBeNull();
    expect(take('big')?.byteLength).toBe(60 * 1024 * 1024);
    handOver('fits-now', new Uint8Array(8 * 1024 * 1024));
    expect(take('fits-now')?.byteLength).toBe(8 * 1024 * 1024);
  });
});
