import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { InviteType, Manuscript } from '@margins/common';
import { buildConfig } from '../../test/factories.ts';
import { buildCatalogue, buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ManuscriptForm } from './manuscript-form.tsx';
import { opensUp } from './visibility.ts';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function visibilityRadio(label: string): HTMLInputElement {
  return screen.getByRole('radio', { name: new RegExp(`^${label}`) }) as HTMLInputElement;
}

describe('opensUp', () => {
  it('is true only for changes that let more people in without asking', () => {
    const cases: Array<[InviteType, InviteType, boolean]> = [
      ['private', 'logged_in', true],
      ['private', 'public', true],
      ['logged_in', 'public', true],
      ['restricted', 'public', true],
      ['private', 'restricted', false],
      ['public', 'private', false],
      ['public', 'logged_in', false],
      ['logged_in', 'restricted', false],
      ['public', 'public', false],
    ];
    for (const [from, to, expected] of cases)
      expect([from, to, opensUp(from, to)]).toEqual([from, to, expected]);
  });
});

describe('ManuscriptForm', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderForm(manuscript: Manuscript, onSaved = vi.fn()) {
    renderWithApp(
      <ManuscriptForm manuscript={manuscript} categories={buildCatalogue()} onSaved={onSaved} />,
      { config: buildConfig('dashboard') },
    );
    return onSaved;
  }

  function sentBody(): FormData {
    const init = fetchMock.mock.calls.at(-1)?.[1] as RequestInit;
    return init.body as FormData;
  }

  it('asks before going from private to public; "Keep it" leaves it private', () => {
    renderForm(buildManuscript({ visibility: 'private' }));
    fireEvent.click(visibilityRadio('Public'));
    const dialog = screen.getByRole('dialog', { name: 'Make it public?' });
    expect(dialog.textContent).toContain('permission');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it as it is' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(visibilityRadio('Private').checked).toBe(true);
    expect(visibilityRadio('Public').checked).toBe(false);
  });

  it('confirming sets it and sends it; going back to private asks nothing', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse(200, { manuscript: buildManuscript({ visibility: 'logged_in' }) }),
    );
    renderForm(buildManuscript({ visibility: 'private' }));
    fireEvent.click(visibilityRadio('Members'));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, open it to members' }));
    expect(visibilityRadio('Members').checked).toBe(true);

    // Members → public asks again.
    fireEvent.click(visibilityRadio('Public'));
    expect(screen.getByRole('dialog', { name: 'Make it public?' })).toBeTruthy();
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(visibilityRadio('Members').checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Save manuscript' }));
    await screen.findByText('manuscript updated!');
    expect(sentBody().get('visibility')).toBe('logged_in');

    fireEvent.click(visibilityRadio('Private'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(visibilityRadio('Private').checked).toBe(true);
  });

  it('posts every field (unchecked boxes as "false", genres repeated) and says "manuscript updated!"', async () => {
    const saved = buildManuscript({ id: 9, summary: 'New summary' });
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { manuscript: saved }));
    const onSaved = renderForm(
      buildManuscript({ id: 9, nsfw: true, genre_ids: [2], visibility: 'restricted' }),
    );
    fireEvent.change(screen.getByLabelText('Summary'), { target: { value: 'New summary' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Mature content/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Fantasy' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Poetry' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save manuscript' }));

    await screen.findByText('manuscript updated!');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/manuscript/9/edit');
    expect(init.method).toBe('POST');
    const body = sentBody();
    expect(body.get('summary')).toBe('New summary');
    expect(body.get('nsfw')).toBe('false');
    expect(body.get('private_comments')).toBe('false');
    expect(body.get('approvals_required')).toBe('false');
    expect(body.get('visibility')).toBe('restricted');
    expect(body.get('category')).toBe('poetry');
    expect(body.getAll('genre_ids').sort()).toEqual(['1', '2']);
    expect(onSaved).toHaveBeenCalledWith(saved);
  });

  it('groups the genres by category', () => {
    renderForm(buildManuscript());
    const poetry = screen.getByRole('group', { name: 'Poetry' });
    expect(within(poetry).getByRole('checkbox', { name: 'Sonnet' })).toBeTruthy();
    expect(within(poetry).queryByRole('checkbox', { name: 'Fantasy' })).toBeNull();
  });

  it('lists a 400 answer in red under each named field, with "Check your form fields"', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        error: 'Check your form fields',
        errors: { title: ['Enter a title.'], genre_ids: ['Choose genres from the list.'] },
      }),
    );
    renderForm(buildManuscript());
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save manuscript' }));

    await screen.findByText('Check your form fields');
    const title = screen.getByLabelText('Title');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    const titleErrors = title.parentElement?.querySelector('[data-field-errors]');
    expect(titleErrors?.textContent).toBe('Enter a title.');
    expect(titleErrors?.className).toContain('text-danger');
    expect(
      screen.getByText('Choose genres from the list.').closest('fieldset')?.textContent,
    ).toContain('Genres');
    await waitFor(() => expect(document.activeElement).toBe(title));
    expect(screen.queryByText('manuscript updated!')).toBeNull();
  });
});
