import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QUESTIONNAIRE_RELOAD_MS, type ReaderPageResponse, type Survey } from '@margins/common';
import { reloadPage } from '../../lib/navigation.ts';
import { QuestionnaireGate } from '../../pages/manuscripts/reader/reader-gates.tsx';
import { ReaderPage } from '../../pages/manuscripts/reader/reader-page.tsx';
import { buildConfig, buildCurrentUser } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { buildBookmark, buildQuestionnaire, jsonResponse } from '../access/test-fixtures.ts';
import { answersPayload } from './survey-answer-form.tsx';
import { FEEDBACK_THANKS } from './feedback-dialog.tsx';

vi.mock('../../lib/navigation.ts', () => ({ loadPage: vi.fn(), reloadPage: vi.fn() }));

const reader = buildCurrentUser({ id: 77, display_name: 'Sam Reader' });

function renderGate(survey: Survey = buildQuestionnaire()) {
  return renderWithApp(
    <QuestionnaireGate survey={survey} manuscriptId={31} userId={77} loginUrl="/auth/login" />,
    { config: buildConfig('reader', {}, reader) },
  );
}

/** Answers every question of the fixture questionnaire. */
function answerAll() {
  const form = screen.getByRole('form', { name: 'Questionnaire' });
  fireEvent.click(within(form).getByRole('radio', { name: 'West' }));
  fireEvent.click(within(form).getByRole('checkbox', { name: 'Mysteries' }));
  fireEvent.click(within(form).getByRole('checkbox', { name: 'Sea stories' }));
  fireEvent.click(within(form).getByRole('checkbox', { name: 'Poetry' }));
  fireEvent.click(within(form).getByRole('checkbox', { name: 'Poetry' }));
  fireEvent.change(within(form).getByLabelText(/Comment/), {
    target: { value: '  Mostly old ones.  ' },
  });
  fireEvent.change(within(form).getByLabelText(/Why do you want to read it/), {
    target: { value: 'I grew up by the sea.' },
  });
  return form;
}

describe('the questionnaire gate', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => vi.mocked(reloadPage).mockReset());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  function answerWith(result: Record<string, unknown>) {
    fetchMock = vi.fn(async () => jsonResponse(200, result));
    vi.stubGlobal('fetch', fetchMock);
  }

  it('builds the answers: a choiceId, a list for multipleAnswer, text, and comments-{id}', () => {
    const survey = buildQuestionnaire();
    expect(
      answersPayload(survey, {
        values: { q1: 'c2', q2: ['a'], q3: '  text  ' },
        comments: { q2: ' why ', q1: 'ignored: q1 takes no comment' },
      }),
    ).toEqual({ q1: 'c2', q2: ['a'], 'comments-q2': 'why', q3: 'text' });
  });

  it('sends {user_id, answers} with lists for multipleAnswer and comments-{id}', async () => {
    answerWith({ id: 1, status: 'awaiting_approval', approved: false });
    renderGate();
    const form = answerAll();
    fireEvent.click(within(form).getByRole('button', { name: 'Send my answers' }));
    await screen.findByText('Awaiting Approval');

    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/manuscript/31/survey/questionaire');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({
      user_id: 77,
      answers: {
        q1: 'c2',
        q2: ['a', 'b'],
        'comments-q2': 'Mostly old ones.',
        q3: 'I grew up by the sea.',
      },
    });
  });

  it('asks for every answer before sending', () => {
    answerWith({ id: 1, status: 'approved', approved: true });
    renderGate();
    const form = screen.getByRole('form', { name: 'Questionnaire' });
    fireEvent.click(within(form).getByRole('radio', { name: 'West' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Send my answers' }));
    expect(screen.getByText('Answer every question first.')).toBeTruthy();
    expect(screen.getAllByText('Answer this question.')).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('approved: says "Approved!" and reloads after 2 s', async () => {
    vi.useFakeTimers();
    answerWith({ id: 1, status: 'approved', approved: true });
    renderGate();
    const form = answerAll();
    fireEvent.click(within(form).getByRole('button', { name: 'Send my answers' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading', { name: 'Approved!' })).toBeTruthy();
    expect(QUESTIONNAIRE_RELOAD_MS).toBe(2000);
    await act(() => vi.advanceTimersByTimeAsync(QUESTIONNAIRE_RELOAD_MS - 1));
    expect(reloadPage).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('not approved: "Awaiting Approval", and no reload', async () => {
    vi.useFakeTimers();
    answerWith({ id: 1, status: 'awaiting_approval', approved: false });
    renderGate();
    const form = answerAll();
    fireEvent.click(within(form).getByRole('button', { name: 'Send my answers' }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole('heading', { name: 'Awaiting Approval' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Questionnaire' })).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('shows the server’s message when the answers are refused', async () => {
    fetchMock = vi.fn(async () =>
      jsonResponse(400, { error: 'Check your form fields', errors: { q1: ['Choose one.'] } }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderGate();
    const form = answerAll();
    fireEvent.click(within(form).getByRole('button', { name: 'Send my answers' }));
    expect(await screen.findByText('Choose one.')).toBeTruthy();
    expect(screen.getByText('Check your form fields')).toBeTruthy();
  });
});

function buildReaderView(overrides: Partial<ReaderPageResponse> = {}): ReaderPageResponse {
  const manuscript = buildManuscript({ id: 31, title: 'The Salt Road', visibility: 'private' });
  return {
    manuscript_id: 31,
    manuscript_user_id: manuscript.user_id,
    visibility: 'private',
    current_user_id: reader.id,
    restricted_mature: false,
    restricted_moderation: false,
    moderationReason: null,
    manuscript,
    html: '<p id="p1">The fog came in before the boats did.</p>',
    toc: [],
    words: 9,
    gate: null,
    questionnaire: null,
    feedback_survey: null,
    feedback_submitted: false,
    bookmark: null,
    invites: [],
    currentUserInvites: [],
    ...overrides,
  };
}

function renderReader(view: ReaderPageResponse, user = reader) {
  return renderWithApp(<ReaderPage />, {
    config: buildConfig('reader', view as unknown as Record<string, unknown>, user),
    url: '/manuscript/document/reader/31',
  });
}

describe('the reader’s gates and access tools', () => {
  beforeEach(() => {
    localStorage.clear();
    Element.prototype.scrollIntoView = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(500, { error: 'unexpected call' })),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the questionnaire instead of the text', () => {
    renderReader(
      buildReaderView({ gate: 'questionnaire', html: '', questionnaire: buildQuestionnaire() }),
    );
    expect(screen.getByRole('form', { name: 'Questionnaire' })).toBeTruthy();
    expect(screen.queryByTestId('reader-box')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add to reads' })).toBeNull();
  });

  it('shows "Awaiting Approval" on a later visit', () => {
    renderReader(buildReaderView({ gate: 'awaiting_approval', html: '' }));
    expect(screen.getByRole('heading', { name: 'Awaiting Approval' })).toBeTruthy();
    expect(screen.queryByTestId('reader-box')).toBeNull();
  });

  it('asks a logged-out visitor to log in or sign up, and to come back', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => jsonResponse(401, { error: 'Not logged in.' })),
    );
    renderWithApp(<ReaderPage />, {
      config: buildConfig('reader', {}, null),
      url: '/manuscript/document/reader/31',
    });
    return waitFor(() => {
      expect(screen.getByRole('heading', { name: 'Log in or sign up to read' })).toBeTruthy();
      const next = encodeURIComponent('/manuscript/document/reader/31');
      expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
        `/auth/login?next=${next}`,
      );
      expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe(
        `/auth/signup?next=${next}`,
      );
    });
  });

  it('offers "Give feedback" to readers and thanks them once sent', async () => {
    const feedback = buildQuestionnaire({
      id: 8,
      surveyType: 'feedback',
      questions: {
        f1: {
          question: 'Did the ending work?',
          questionType: 'multipleChoice',
          order: 0,
          allowComments: false,
          choices: [
            { choiceId: 'y', choice: 'Yes' },
            { choiceId: 'n', choice: 'No' },
          ],
        },
      },
    });
    const fetchMock = vi.fn(async (url: string) =>
      url === '/manuscript/31/survey/feedback'
        ? jsonResponse(200, { id: 3, status: 'submitted', approved: false })
        : jsonResponse(200, { comments: [] }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderReader(buildReaderView({ feedback_survey: feedback }));
    // jsdom lays nothing out: the whole text counts as read once measured (after the first
    // frame), so the end offers it too.
    const offer = await screen.findByRole('complementary', { name: 'Feedback' });
    expect(within(offer).getByText('You reached the end')).toBeTruthy();
    const tools = document.querySelector('[data-access-tools="reader"]') as HTMLElement;
    fireEvent.click(within(tools).getByRole('button', { name: 'Give feedback' }));
    const dialog = screen.getByRole('dialog', { name: 'Feedback for the author' });
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Yes' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByRole('dialog', { name: FEEDBACK_THANKS })).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(
      ([url]) => url === '/manuscript/31/survey/feedback',
    ) as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ user_id: 77, answers: { f1: 'y' } });
  });

  it('does not offer feedback to the author, who gets the Share and survey editors', () => {
    const author = buildCurrentUser({ id: 5 });
    const view = buildReaderView({ current_user_id: 5 });
    view.manuscript_user_id = 5;
    renderReader(view, author);
    expect(screen.getByRole('button', { name: 'Share' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Questionnaire' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Add to reads' })).toBeNull();
  });

  it('shows "In your reads" for a manuscript already bookmarked', () => {
    renderReader(buildReaderView({ bookmark: buildBookmark(buildManuscript({ id: 31 }), 10) }));
    expect(screen.getByRole('button', { name: 'In your reads' })).toBeTruthy();
  });
});
