import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import { jsonResponse } from './access/test-fixtures.ts';
import { buildConfig, buildCurrentUser } from '../test/factories.ts';
import { renderWithApp } from '../test/render.tsx';
import { VerifyEmailBanner } from './verify-email-banner.tsx';

const unverified = buildCurrentUser({ email: 'new@example.com', email_verified: false });

describe('VerifyEmailBanner', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is not shown to a confirmed user, nor to visitors', () => {
    renderWithApp(<VerifyEmailBanner />, { config: buildConfig('dashboard') });
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail' })).toBeNull();
    renderWithApp(<VerifyEmailBanner />, { config: buildConfig('dashboard', {}, null) });
    expect(screen.queryByRole('region', { name: 'Confirm your e-mail' })).toBeNull();
  });

  it('tells an unconfirmed user why, and sends the link again', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { ok: true }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<VerifyEmailBanner />, { config: buildConfig('dashboard', {}, unverified) });
    const banner = screen.getByRole('region', { name: 'Confirm your e-mail' });
    expect(banner.textContent).toMatch(/upload manuscripts and invite readers/);
    expect(banner.textContent).toContain('new@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText('A fresh link is on its way.')).toBeTruthy();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/auth/verify/resend');
    expect(init.method).toBe('POST');
  });

  it('says so when the server refuses (too many mails)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(429, { error: MESSAGES.tooManyRequests })),
    );
    renderWithApp(<VerifyEmailBanner />, { config: buildConfig('dashboard', {}, unverified) });
    fireEvent.click(screen.getByRole('button', { name: 'Send again' }));
    expect(await screen.findByText(MESSAGES.tooManyRequests)).toBeTruthy();
  });
});
