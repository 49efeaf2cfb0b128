import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { CookieNotice } from './cookie-notice.tsx';

describe('CookieNotice', () => {
  beforeEach(() => localStorage.clear());

  it('is shown while cookie-accept is not set', () => {
    renderWithApp(<CookieNotice />);
    expect(screen.getByRole('region', { name: 'Cookie notice' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Got It' })).toBeTruthy();
  });

  it('is hidden when cookie-accept is set', () => {
    localStorage.setItem('cookie-accept', 'true');
    renderWithApp(<CookieNotice />);
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
  });

  it('"Got It" sets cookie-accept and dismisses it, for good', () => {
    const first = renderWithApp(<CookieNotice />);
    fireEvent.click(screen.getByRole('button', { name: 'Got It' }));
    expect(localStorage.getItem('cookie-accept')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
    first.unmount();

    renderWithApp(<CookieNotice />);
    expect(screen.queryByRole('region', { name: 'Cookie notice' })).toBeNull();
  });
});
