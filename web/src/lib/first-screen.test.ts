import { describe, expect, it } from 'vitest';
import { firstScreenInApp } from './first-screen.ts';

describe('the first screen inside the app', () => {
  it('leaves out the band that stood in for the header, and keeps the rest as it was', () => {
    const markup =
      '<div data-first-screen="" aria-busy="true">' +
      '<div data-first-screen-header="" class="h-16 border-b border-line/80"></div>' +
      '<div class="mx-auto"><div class="reader-box"><p id="b-1">The first words.</p></div></div>' +
      '</div>';
    expect(firstScreenInApp(markup)).toBe(
      '<div data-first-screen="" aria-busy="true">' +
        '<div class="mx-auto"><div class="reader-box"><p id="b-1">The first words.</p></div></div>' +
        '</div>',
    );
  });

  it('is empty when the server sent no first screen', () => {
    expect(firstScreenInApp('')).toBe('');
  });
});
