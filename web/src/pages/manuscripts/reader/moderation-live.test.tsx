import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MODERATION_MESSAGES, roomName, type ReaderResponse } from '@margins/common';
import { MaintenanceNotice } from '../../../components/layout/maintenance-notice.tsx';
import type { TestSocket } from '../../../realtime/test-socket.ts';
import { buildConfig, buildCurrentUser } from '../../../test/factories.ts';
import { buildManuscript } from '../../../test/manuscripts.ts';
import { renderWithApp } from '../../../test/render.tsx';
import { ReaderPage } from './reader-page.tsx';

vi.mock('../../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));
// One socket the test drives as the server would.
const sockets: TestSocket[] = [];
vi.mock('../../../realtime/socket.ts', async (importOriginal) => {
  const { TestSocket } = await import('../../../realtime/test-socket.ts');
  return {
    ...(await importOriginal<typeof import('../../../realtime/socket.ts')>()),
    createSocket: () => {
      const socket = new TestSocket({ join: () => ({ ok: true, users: [] }) });
      sockets.push(socket);
      return socket.socket;
    },
  };
});

class NoObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
  takeRecords() {
    return [];
  }
}

const reader = buildCurrentUser({ id: 77 });
const author = buildCurrentUser({ id: 5 });

function view(): ReaderResponse & Record<string, unknown> {
  const manuscript = buildManuscript({ id: 31, user_id: 5, title: 'Salt', visibility: 'public' });
  return {
    manuscript_id: 31,
    manuscript_user_id: 5,
    visibility: 'public',
    current_user_id: reader.id,
    restricted_mature: false,
    restricted_moderation: false,
    moderationReason: null,
    manuscript,
    html: '<p id="p1">The fog came in.</p>',
    toc: [],
    words: 4,
  };
}

const render = (user = reader, data: Record<string, unknown> = view()) =>
  renderWithApp(<ReaderPage />, {
    config: buildConfig('reader', data, user),
    url: '/manuscript/document/reader/31',
  });

describe('moderation on the reader page', () => {
  beforeEach(() => {
    sockets.length = 0;
    vi.stubGlobal('IntersectionObserver', NoObserver);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the notice when a moderator flags the manuscript while it is being read', async () => {
    render();
    expect(screen.getByTestId('reader-box')).toBeTruthy();
    const socket = sockets.at(-1)!;
    act(() => {
      socket.connect();
    });
    act(() =>
      socket.fire('manuscript_flagged', {
        room: roomName(31),
        manuscript_id: 31,
        moderation_flag: true,
        moderation_reason: 'Copied text',
      }),
    );
    expect(
      await screen.findByText('This manuscript was flagged by our moderators. Reason: Copied text'),
    ).toBeTruthy();
    expect(screen.queryByTestId('reader-box')).toBeNull();
  });

  it('shows the author each staff opening, and nothing to readers', () => {
    const data = { ...view(), staff_openings: [{ opened: '2026-03-04T10:00:00.000Z' }] };
    const { unmount } = render(author, data);
    const line = screen.getByText(
      /A moderator opened this manuscript on .* while reviewing a report\./,
    );
    expect(line.textContent).toMatch(/2026/);
    unmount();
    render(reader, data);
    expect(screen.queryByText(/A moderator opened this manuscript/)).toBeNull();
  });
});

describe('MaintenanceNotice', () => {
  it('shows the notice while maintenance is on, nothing otherwise', () => {
    const { unmount } = renderWithApp(<MaintenanceNotice />, {
      config: { ...buildConfig('discover'), maintenanceNotice: 'Back at ten.' },
    });
    expect(screen.getByText('Back at ten.').hasAttribute('data-maintenance-notice')).toBe(true);
    unmount();
    const { container } = renderWithApp(<MaintenanceNotice />, { config: buildConfig('discover') });
    expect(screen.queryByText(MODERATION_MESSAGES.maintenanceDefault)).toBeNull();
    expect(container.querySelector('[data-maintenance-notice]')).toBeNull();
  });
});
