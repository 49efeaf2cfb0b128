import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { whenLaidOut } from '../../../lib/laid-out.ts';
import { nextStepSize, useProgressiveLayout } from './use-progressive-layout.ts';

describe('the size of a progressive layout step', () => {
  it('grows on fast frames, at most doubling, up to its cap', () => {
    expect(nextStepSize(75, 10)).toBe(150);
    expect(nextStepSize(800, 5)).toBe(1200);
  });

  it('shrinks to what fits a 40 ms frame at the rate measured, never below its floor', () => {
    expect(nextStepSize(300, 120)).toBe(100);
    expect(nextStepSize(75, 40)).toBe(75);
    expect(nextStepSize(75, 2000)).toBe(25);
  });
});

describe('the progressive layout beside the highlights being drawn', () => {
  function bookBox(blocks: number): HTMLDivElement {
    const box = document.createElement('div');
    for (let index = 0; index < blocks; index++) {
      const block = document.createElement('p');
      block.id = `b-${index}`;
      block.textContent = `Paragraph ${index}`;
      box.append(block);
    }
    document.body.append(box);
    return box;
  }
  const laidOut = (box: HTMLElement) => box.querySelectorAll('[data-laid-out]').length;

  it('waits while the highlights are drawn, then lays the whole text out', async () => {
    const box = bookBox(30);
    box.dataset.highlights = 'painting';
    const ref = { current: box };
    const { unmount } = renderHook(() => useProgressiveLayout(ref, '<p>the text</p>'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(laidOut(box)).toBe(0);
    expect(box.dataset.layout).toBe('lazy');

    box.dataset.highlights = 'painted';
    const done = new Promise<void>((resolve) => whenLaidOut(box, resolve));
    await done;
    expect(laidOut(box)).toBe(30);
    unmount();
    box.remove();
  });
});
