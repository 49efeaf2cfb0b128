import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageInfoFor, type SurveyAnswer, type SurveyResponsesResponse } from '@margins/common';
import { buildQuestionnaire, jsonResponse } from '../../components/access/test-fixtures.ts';
import { buildConfig, buildUser } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { SurveyAnswersPage } from './survey-answers-page.tsx';

function buildAnswer(overrides: Partial<SurveyAnswer> = {}): SurveyAnswer {
  return {
    id: 12,
    survey_id: 7,
    survey_type: 'questionaire',
    manuscript_id: 31,
    user: buildUser({ id: 40, display_name: 'Sam Reader', handle: 'sam' }),
    answers: { q1: 'c1', q2: ['a', 'b'], 'comments-q2': 'Old ones.', q3: 'The sea.' },
    score: 50,
    approved: false,
    auto_approved: false,
    approved_at: null,
    created: '2026-02-03T10:00:00.000Z',
    ...overrides,
  };
}

function buildData(answers: SurveyAnswer[]): SurveyResponsesResponse {
  const survey = buildQuestionnaire();
  // The author's copy carries the right answers.
  survey.questions.q1!.choices = [
    { choiceId: 'c1', choice: 'East', correctChoice: false },
    { choiceId: 'c2', choice: 'West', correctChoice: true },
  ];
  return {
    manuscript: buildManuscript({ id: 31, title: 'The Salt Road' }),
    survey,
    answers,
    total: answers.length,
    page: pageInfoFor(answers.length, 1, 100),
  };
}

function render(answers: SurveyAnswer[]) {
  renderWithApp(<SurveyAnswersPage />, {
    config: buildConfig(
      'm-survey-answers',
      buildData(answers) as unknown as Record<string, unknown>,
    ),
    url: '/manuscript/31/survey/questionaire/responses',
  });
}

describe('the survey answers page', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists each response with reader, score and approval', () => {
    render([
      buildAnswer(),
      buildAnswer({
        id: 13,
        user: buildUser({ display_name: 'June Harrow' }),
        score: 100,
        approved: true,
        auto_approved: true,
      }),
    ]);
    const list = screen.getByRole('list', { name: 'Responses' });
    const rows = within(list).getAllByRole('button');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('Sam Reader');
    expect(rows[0]!.textContent).toContain('50%');
    expect(rows[0]!.textContent).toContain('Awaiting approval');
    expect(rows[1]!.textContent).toContain('Auto-approved');
    expect(screen.getByText(/1 awaiting your approval/)).toBeTruthy();
  });

  it('opens a response with every answer, the right answers marked, and approves it', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, {
        answer: buildAnswer({ approved: true, approved_at: '2026-02-04T10:00:00.000Z' }),
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    document.cookie = 'csrf_token=tok123';
    render([buildAnswer()]);
    fireEvent.click(screen.getByRole('button', { name: /Sam Reader/ }));
    const dialog = screen.getByRole('dialog', { name: 'Sam Reader’s answers' });

    const east = within(dialog).getByText('East').closest('li') as HTMLElement;
    const west = within(dialog).getByText('West').closest('li') as HTMLElement;
    expect(east.dataset.choiceState).toBe('picked-wrong');
    expect(west.dataset.choiceState).toBe('missed');
    expect(within(west).getByText('Right answer')).toBeTruthy();
    expect(within(dialog).getByText('Old ones.')).toBeTruthy();
    expect(within(dialog).getByText('The sea.')).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Approved')).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Approve' })).toBeNull();

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/manuscript/survey/answer/12/approve');
    expect(init.method).toBe('GET');
    // A state-changing GET: it carries the CSRF header like a write.
    expect((init.headers as Record<string, string>)['x-csrf-token']).toBe('tok123');
    const row = screen.getByRole('list', { name: 'Responses' });
    expect(within(row).getByText('Approved')).toBeTruthy();
  });

  it('says so when nobody has answered yet', () => {
    render([]);
    expect(screen.getByText('Nobody has answered yet.')).toBeTruthy();
  });
});
