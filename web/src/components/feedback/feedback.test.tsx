import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FLASH_TIMEOUT_MS, TOAST_DELAY_MS } from '@margins/common';
import '../../test/render.tsx';
import { FLASH_FADE_MS, FeedbackProvider, useFlash, useToast } from './feedback.tsx';

function Buttons() {
  const flash = useFlash();
  const toast = useToast();
  return (
    <>
      <button type="button" onClick={() => flash('Unable to update genres')}>
        flash
      </button>
      <button type="button" onClick={() => toast('Profile saved!')}>
        toast
      </button>
    </>
  );
}

function renderFeedback() {
  render(
    <FeedbackProvider>
      <Buttons />
    </FeedbackProvider>,
  );
}

describe('flash messages', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows a red, dismissible alert', () => {
    renderFeedback();
    fireEvent.click(screen.getByRole('button', { name: 'flash' }));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Unable to update genres');
    expect(alert.className).toContain('text-danger');

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('fades after FLASH_TIMEOUT_MS (7 s) and then goes', () => {
    renderFeedback();
    fireEvent.click(screen.getByRole('button', { name: 'flash' }));
    act(() => vi.advanceTimersByTime(FLASH_TIMEOUT_MS - 100));
    const alert = screen.getByRole('alert');
    expect(alert.dataset.leaving).toBeUndefined();
    expect(alert.className).toContain('opacity-100');

    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByRole('alert').dataset.leaving).toBe('true');
    expect(screen.getByRole('alert').className).toContain('opacity-0');

    act(() => vi.advanceTimersByTime(FLASH_FADE_MS));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('toasts go away after TOAST_DELAY_MS (5 s)', () => {
    renderFeedback();
    fireEvent.click(screen.getByRole('button', { name: 'toast' }));
    expect(screen.getByRole('status').textContent).toContain('Profile saved!');
    act(() => vi.advanceTimersByTime(TOAST_DELAY_MS - 1));
    expect(screen.getByRole('status').textContent).toContain('Profile saved!');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('status').textContent).not.toContain('Profile saved!');
  });
});
