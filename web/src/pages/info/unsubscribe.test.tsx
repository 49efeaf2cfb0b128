import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { INSIGHTS_MESSAGES } from '@margins/common';
import { renderWithApp } from '../../test/render.tsx';
import { anonymousConfig } from '../../page-config.ts';
import { UnsubscribePage } from './unsubscribe.tsx';

const withData = (data: Record<string, unknown>) => ({
  ...anonymousConfig('unsubscribe'),
  data,
});

describe('UnsubscribePage', () => {
  it('asks before it unsubscribes: a form that posts the one-click body to the link', () => {
    renderWithApp(<UnsubscribePage />, {
      config: withData({
        outcome: 'ready',
        message: INSIGHTS_MESSAGES.unsubscribeConfirm,
        action: '/unsubscribe/abc',
      }),
    });
    expect(screen.getByText(INSIGHTS_MESSAGES.unsubscribeConfirm)).toBeTruthy();
    const button = screen.getByRole('button', { name: 'Unsubscribe' });
    const form = button.closest('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe('/unsubscribe/abc');
    expect(Object.fromEntries(new FormData(form))).toEqual({ 'List-Unsubscribe': 'One-Click' });
  });

  it('says what happened after, with no button', () => {
    renderWithApp(<UnsubscribePage />, {
      config: withData({ outcome: 'done', message: INSIGHTS_MESSAGES.unsubscribed }),
    });
    expect(screen.getByRole('heading', { name: 'Unsubscribed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Unsubscribe' })).toBeNull();
  });
});
