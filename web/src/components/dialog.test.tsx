import { useState } from 'react';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../test/render.tsx';
import { ConfirmDialog, Dialog } from './dialog.tsx';

function Harness() {
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open ? (
        <Dialog title="Settings" onClose={() => setOpen(false)}>
          <input aria-label="Name" />
          <button type="button" onClick={() => setAsking(true)}>
            Ask
          </button>
          {asking ? (
            <ConfirmDialog
              title="Sure?"
              confirmLabel="Yes"
              onConfirm={() => setAsking(false)}
              onCancel={() => setAsking(false)}
            />
          ) : null}
        </Dialog>
      ) : null}
    </>
  );
}

describe('Dialog', () => {
  it('takes the focus, keeps Tab inside, closes on Escape and gives the focus back', () => {
    renderWithApp(<Harness />);
    const opener = screen.getByRole('button', { name: 'Open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const close = screen.getByRole('button', { name: 'Close' });
    const ask = screen.getByRole('button', { name: 'Ask' });
    expect(document.activeElement).toBe(close);

    ask.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(ask);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('Escape closes only the innermost dialog; the safe choice has the focus', () => {
    renderWithApp(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Ask' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Sure?' })).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeTruthy();
  });
});
