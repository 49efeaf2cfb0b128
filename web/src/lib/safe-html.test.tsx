import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../test/render.tsx';
import { renderSafeHtml } from './safe-html.tsx';

describe('renderSafeHtml', () => {
  it('keeps links and text, drops scripts, handlers and unsafe targets', () => {
    const { container } = render(
      <div>
        {renderSafeHtml(
          '<p onclick="alert(1)">Hi <strong>there</strong></p><script>alert(2)</script>' +
            '<p><a href="https://example.test/auth/verify?token=abc">Verify my e-mail</a> ' +
            '<a href="javascript:alert(3)">bad</a> see https://example.test/x.</p>',
        )}
      </div>,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('[onclick]')).toBeNull();
    expect(container.querySelector('strong')?.textContent).toBe('there');
    const links = Array.from(container.querySelectorAll('a'));
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Verify my e-mail', 'https://example.test/auth/verify?token=abc'],
      ['bad', null],
      ['https://example.test/x', 'https://example.test/x'],
    ]);
  });
});
