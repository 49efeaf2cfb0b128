import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, pageInfoFor } from '@margins/common';
import { buildConfig } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SharePanel } from './share-panel.tsx';
import { buildInvite, jsonResponse } from './test-fixtures.ts';

const manuscript = buildManuscript({ id: 31, title: 'The Salt Road', visibility: 'private' });

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

function setUp(invite: Handler, link?: Handler) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === '/manuscript/31/invites') {
      return jsonResponse(200, {
        visibility: 'private',
        invites: [],
        total: 0,
        page: pageInfoFor(0, 1, 100),
      });
    }
    if (url === '/manuscript/31/invite/user') return invite(url, init);
    if (url === '/manuscript/31/invite/link' && link) return link(url, init);
    if (url.startsWith('/profile/lookup')) return jsonResponse(200, { users: [] });
    return jsonResponse(404, { error: 'Not found.' });
  });
  vi.stubGlobal('fetch', fetchMock);
  renderWithApp(<SharePanel manuscript={manuscript} />, { config: buildConfig('dashboard') });
  return fetchMock;
}

const callsTo = (fetchMock: ReturnType<typeof vi.fn>, path: string) =>
  fetchMock.mock.calls.filter(([url]) => url === path) as Array<[string, RequestInit]>;

async function invite(text: string) {
  const form = screen.getByRole('form', { name: 'Invite someone' });
  fireEvent.change(within(form).getByRole('combobox'), { target: { value: text } });
  fireEvent.click(within(form).getByRole('button', { name: 'Invite' }));
}

describe('the Share tab: inviting someone', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a handle or an address when the box is empty, without calling the server', async () => {
    const fetchMock = setUp(() => jsonResponse(200, {}));
    await invite('   ');
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.enterUserOrEmail);
    expect(callsTo(fetchMock, '/manuscript/31/invite/user')).toHaveLength(0);
  });

  it.each([
    [404, { error: 'x' }, MESSAGES.inviteNoAccount],
    [400, { error: 'x' }, MESSAGES.inviteUnable],
    [403, { error: 'x' }, MESSAGES.inviteUnable],
    [401, { error: 'x' }, MESSAGES.notLoggedIn],
    [500, { error: 'x' }, MESSAGES.serverCommunication],
    [502, { error: 'x' }, MESSAGES.serverCommunication],
  ])('says what SPEC says for a %i', async (status, body, message) => {
    setUp(() => jsonResponse(status, body));
    await invite('@nobody');
    await waitFor(() =>
      expect(document.querySelector('[data-invite-message="error"]')?.textContent).toBe(message),
    );
  });

  it('says "Unexpected response!" when a 200 cannot be read', async () => {
    setUp(() => new Response('<html>oops</html>', { status: 200 }));
    await invite('@sam');
    await waitFor(() =>
      expect(document.querySelector('[data-invite-message="error"]')?.textContent).toBe(
        MESSAGES.unexpectedResponse,
      ),
    );
  });

  it('says "Unexpected response!" for JSON that is not an invite', async () => {
    setUp(() => jsonResponse(200, { hello: 'world' }));
    await invite('@sam');
    await waitFor(() =>
      expect(document.querySelector('[data-invite-message="error"]')?.textContent).toBe(
        MESSAGES.unexpectedResponse,
      ),
    );
  });

  it('sends a handle as username and an address as email', async () => {
    const fetchMock = setUp(() => jsonResponse(200, { invite: buildInvite() }));
    await invite('@sam');
    await screen.findByText(/Invited Sam Reader/);
    await invite('new.reader@example.com');
    await waitFor(() => expect(callsTo(fetchMock, '/manuscript/31/invite/user')).toHaveLength(2));
    const bodies = callsTo(fetchMock, '/manuscript/31/invite/user').map(([, init]) =>
      JSON.parse(String(init.body)),
    );
    expect(bodies).toEqual([{ username: '@sam' }, { email: 'new.reader@example.com' }]);
    const [, init] = callsTo(fetchMock, '/manuscript/31/invite/user')[0]!;
    expect(init.method).toBe('POST');
  });

  it('says the invite was e-mailed, and lists it without guessing whose address it is', async () => {
    setUp(() =>
      jsonResponse(200, {
        invite: buildInvite({ kind: 'email', user: null, email: 'new.reader@example.com' }),
      }),
    );
    await screen.findByText(/Nobody has been invited yet/);
    await invite('new.reader@example.com');
    expect(
      (await screen.findByText(/Invite e-mailed to new.reader@example.com/)).textContent,
    ).toBeTruthy();
    expect(await screen.findByText(MESSAGES.accessUpdated)).toBeTruthy();
    const row = document.querySelector('[data-invite-row="person"]') as HTMLElement;
    expect(within(row).getByText('new.reader@example.com')).toBeTruthy();
    expect(within(row).getByText('Invited by e-mail')).toBeTruthy();
    expect(within(row).getByText('Invited')).toBeTruthy();
    expect(row.textContent).not.toMatch(/no account/i);
  });

  it('suggests people from /profile/lookup after a 300 ms pause', async () => {
    vi.useFakeTimers();
    try {
      const fetchMock = vi.fn(async (url: string) => {
        if (url.startsWith('/profile/lookup')) {
          return jsonResponse(200, { users: [{ id: 3, handle: 'june', display_name: 'June' }] });
        }
        return jsonResponse(200, {
          visibility: 'private',
          invites: [],
          total: 0,
          page: pageInfoFor(0, 1, 100),
        });
      });
      vi.stubGlobal('fetch', fetchMock);
      renderWithApp(<SharePanel manuscript={manuscript} />, { config: buildConfig('dashboard') });
      const box = screen.getByRole('combobox');
      fireEvent.change(box, { target: { value: 'ju' } });
      await act(() => vi.advanceTimersByTimeAsync(299));
      expect(fetchMock.mock.calls.some(([url]) => url.startsWith('/profile/lookup'))).toBe(false);
      await act(() => vi.advanceTimersByTimeAsync(1));
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/profile/lookup?q=ju');
      const option = screen.getByRole('option', { name: /June/ });
      fireEvent.mouseDown(option);
      expect((box as HTMLInputElement).value).toBe('@june');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the Share tab: who may read, and the link', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText: vi.fn(async () => {}) } });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('enables "One-time use" only for private', async () => {
    setUp(() => jsonResponse(200, {}));
    const oneTime = screen.getByRole('checkbox', { name: /One-time use/ }) as HTMLInputElement;
    expect(oneTime.disabled).toBe(false);
    fireEvent.click(oneTime);
    expect(oneTime.checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /On request/ }));
    expect(oneTime.disabled).toBe(true);
    expect(oneTime.checked).toBe(false);
    fireEvent.click(screen.getByRole('radio', { name: /Private/ }));
    expect(oneTime.disabled).toBe(false);
  });

  it('asks before a less restricted type, and keeps the old one when cancelled', async () => {
    setUp(() => jsonResponse(200, {}));
    // private → restricted is not less restricted in SPEC's sense: no question.
    fireEvent.click(screen.getByRole('radio', { name: /On request/ }));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.click(screen.getByRole('radio', { name: /Public/ }));
    const confirm = screen.getByRole('dialog', { name: 'Make it public?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect((screen.getByRole('radio', { name: /On request/ }) as HTMLInputElement).checked).toBe(
      true,
    );

    fireEvent.click(screen.getByRole('radio', { name: /Members/ }));
    const members = screen.getByRole('dialog', { name: 'Open it to all members?' });
    fireEvent.click(within(members).getByRole('button', { name: 'Yes, open it to members' }));
    expect((screen.getByRole('radio', { name: /Members/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('creates a one-time link: shows it with Copy ("Copied!") and says "Access updated!"', async () => {
    const link = 'http://margins.test/share/abc123';
    const fetchMock = setUp(
      () => jsonResponse(200, {}),
      () =>
        jsonResponse(200, {
          invite: buildInvite({
            kind: 'link',
            user: null,
            link,
            one_time: true,
            invite_code: { code: 'abc123', redeemed: false },
          }),
        }),
    );
    fireEvent.click(screen.getByRole('checkbox', { name: /One-time use/ }));
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Create one-time link' }) as HTMLButtonElement)
          .disabled,
      ).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create one-time link' }));
    expect(await screen.findByText(MESSAGES.accessUpdated)).toBeTruthy();
    const [, init] = callsTo(fetchMock, '/manuscript/31/invite/link')[0]!;
    expect(JSON.parse(String(init.body))).toEqual({ access: 'private', useInvite: true });
    expect((screen.getByLabelText('Share link') as HTMLInputElement).value).toBe(link);

    const box = document.querySelector('[data-share-link]') as HTMLElement;
    fireEvent.click(within(box).getByRole('button', { name: 'Copy' }));
    expect(await within(box).findByRole('button', { name: MESSAGES.copied })).toBeTruthy();
    // The new link is in the list too, unused, with its own Copy.
    const row = document.querySelector('[data-invite-row="link"]') as HTMLElement;
    expect(within(row).getByText('Unused')).toBeTruthy();
    expect(navigator.clipboard.writeText).toHaveBeenCalledWith(link);
  });

  it('says SPEC’s sentence when the manuscript is gone (404)', async () => {
    setUp(
      () => jsonResponse(200, {}),
      () => jsonResponse(404, { error: 'Not found.' }),
    );
    await waitFor(() =>
      expect(
        (screen.getByRole('button', { name: 'Create link' }) as HTMLButtonElement).disabled,
      ).toBe(false),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Create link' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.linkDocumentMissing);
  });
});
