import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@margins/common';
import { renderWithApp } from '../../test/render.tsx';
import { relativeTime } from './comment-time.tsx';
import { drawnHighlights } from './threads.ts';
import { ReportDialog } from './report-dialog.tsx';
import { ShareDialog } from './share-dialog.tsx';
import { buildComment, buildHighlight } from './test-data.ts';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const REASONS = {
  reasons: [
    {
      id: 1,
      reason: 'Spam or advertising',
      description: 'Promotes something.',
      description_required: false,
    },
    { id: 6, reason: 'Something else', description: 'Tell us more.', description_required: true },
  ],
};

afterEach(() => vi.unstubAllGlobals());

describe('the report modal', () => {
  it('offers the server’s reasons and shows a 400’s errors under their fields', async () => {
    document.cookie = 'csrf_token=csrf-for-test';
    const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
      if (url === '/report/reasons') return json(REASONS);
      if (url === '/report/' && init.method === 'POST') {
        return json(
          {
            error: 'Please check your fields',
            errors: {
              reason_description: ['Tell us a little more about this report.'],
              report_element_id: ["You can't report your own comment."],
            },
          },
          400,
        );
      }
      throw new Error(`unexpected ${url}`);
    });
    vi.stubGlobal('fetch', fetchMock);
    const onClose = vi.fn();
    renderWithApp(
      <ReportDialog
        target={{ model: 'comment', id: 41, label: 'A comment by June' }}
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Report this comment' });
    fireEvent.click(await within(dialog).findByLabelText(/Something else/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));

    expect(await within(dialog).findByText(MESSAGES.pleaseCheckFields)).toBeTruthy();
    const description = within(dialog).getByLabelText('Tell us more');
    const described = description.getAttribute('aria-describedby')!;
    expect(document.getElementById(described.split(' ').pop()!)?.textContent).toBe(
      'Tell us a little more about this report.',
    );
    expect(within(dialog).getByText("You can't report your own comment.")).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();

    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/report/')!;
    expect(JSON.parse(String(init!.body))).toEqual({
      model_name: 'comment',
      report_element_id: 41,
      reason_id: 6,
      reason_description: '',
    });
    expect((init!.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-for-test');
  });

  it('closes with the toast "Your report has been submitted." when the server takes it', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/report/reasons'
          ? json(REASONS)
          : json({ ok: true, message: MESSAGES.reportSubmitted }),
      ),
    );
    const onClose = vi.fn();
    renderWithApp(
      <ReportDialog
        target={{ model: 'manuscript', id: 31, label: 'The Salt Road' }}
        onClose={onClose}
      />,
    );
    fireEvent.click(await screen.findByLabelText(/Spam or advertising/));
    fireEvent.change(screen.getByLabelText('Tell us more (optional)'), {
      target: { value: '  Links to a shop.  ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.getByText(MESSAGES.reportSubmitted)).toBeTruthy();
  });
});

describe('the share modal', () => {
  it('copies the reader’s address and says "Copied!"', async () => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    vi.stubGlobal('isSecureContext', true);
    renderWithApp(
      <ShareDialog
        url="http://margins.test/manuscript/document/reader/31"
        title="The Salt Road"
        onClose={() => undefined}
      />,
    );
    expect((screen.getByLabelText('Link to the manuscript') as HTMLInputElement).value).toBe(
      'http://margins.test/manuscript/document/reader/31',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByRole('button', { name: MESSAGES.copied })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('http://margins.test/manuscript/document/reader/31');
  });
});

describe('small rules', () => {
  it('shows times in words, accepting "now"', () => {
    const now = Date.parse('2026-01-05T12:00:00.000Z');
    expect(relativeTime('now')).toBe('just now');
    expect(relativeTime('2026-01-05T11:55:00.000Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-01-05T09:00:00.000Z', now)).toBe('3 h ago');
    expect(relativeTime('not a date', now)).toBe('');
  });

  it('draws someone else’s highlight without a comment only while it is new', () => {
    const now = Date.parse('2026-01-05T12:00:00.000Z');
    const fresh = buildHighlight({
      selection_id: 'fresh',
      user_id: 2,
      created: '2026-01-05T11:58:00.000Z',
    });
    const abandoned = buildHighlight({
      selection_id: 'old',
      user_id: 2,
      created: '2026-01-04T11:00:00.000Z',
    });
    const mine = buildHighlight({
      selection_id: 'mine',
      user_id: 1,
      created: '2026-01-04T11:00:00.000Z',
    });
    const discussed = buildHighlight({
      selection_id: 'talk',
      user_id: 2,
      created: '2026-01-04T11:00:00.000Z',
    });
    const drawn = drawnHighlights(
      [fresh, abandoned, mine, discussed],
      [buildComment({ selection_id: 'talk' })],
      1,
      now,
    );
    expect(drawn.map((highlight) => highlight.selection_id)).toEqual(['fresh', 'mine', 'talk']);
  });
});
