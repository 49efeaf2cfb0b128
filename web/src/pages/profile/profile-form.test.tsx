import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildConfig, buildCurrentUser } from '../../test/factories.ts';
import { renderWithApp } from '../../test/render.tsx';
import { ProfileForm } from './profile-form.tsx';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('ProfileForm', () => {
  const user = buildCurrentUser({ handle: 'juneh', display_name: 'June Harrow' });
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  function renderForm() {
    renderWithApp(<ProfileForm user={user} />, {
      config: buildConfig('current-profile', {}, user),
    });
  }

  it('shows a 400 answer as red lists under the named fields, and "Check your form fields"', async () => {
    fetchMock.mockResolvedValueOnce(
      jsonResponse(400, {
        error: 'Check your form fields',
        errors: {
          handle: ['That handle is taken. Try another.'],
          website: ['No spaces or angle brackets.', 'Use at most 200 characters.'],
        },
      }),
    );
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));

    await screen.findByText('That handle is taken. Try another.');
    const handle = screen.getByLabelText('Handle');
    expect(handle.getAttribute('aria-invalid')).toBe('true');
    const handleErrors = document.getElementById(
      handle
        .getAttribute('aria-describedby')
        ?.split(' ')
        .find((id) => id.endsWith('-errors')) ?? '',
    );
    expect(handleErrors?.textContent).toContain('That handle is taken. Try another.');
    expect(handleErrors?.className).toContain('text-danger');

    const website = screen.getByLabelText('Website');
    const websiteField = website.parentElement as HTMLElement;
    const items = within(websiteField)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(['No spaces or angle brackets.', 'Use at most 200 characters.']);
    expect(screen.getByLabelText('Display name').getAttribute('aria-invalid')).toBeNull();

    expect(
      screen
        .getAllByRole('alert')
        .some((alert) => alert.textContent?.includes('Check your form fields')),
    ).toBe(true);
  });

  it('posts multipart form data to /profile/?format=json and toasts on success', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { form: { errors: {} } }));
    renderForm();
    fireEvent.change(screen.getByLabelText('Pronouns'), { target: { value: 'she/her' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await screen.findByText('Profile saved!');
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/profile/?format=json');
    expect(init.method).toBe('POST');
    const body = init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect(body.get('handle')).toBe('juneh');
    expect(body.get('pronouns')).toBe('she/her');
    expect(body.has('picture')).toBe(false);
  });

  it('flashes "Your information could not be saved" on another failure', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { error: 'Something went wrong' }));
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .some((alert) => alert.textContent?.includes('Your information could not be saved')),
      ).toBe(true),
    );
  });
});
