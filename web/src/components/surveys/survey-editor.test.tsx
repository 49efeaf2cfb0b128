import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUTO_APPROVE_PERCENT_DEFAULT, type SurveyType } from '@margins/common';
import { buildQuestionnaire, jsonResponse } from '../access/test-fixtures.ts';
import { buildConfig } from '../../test/factories.ts';
import { buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { addYesNo, emptyQuestion, move, YES_NO_REFUSED } from './survey-draft.ts';
import { SurveyEditor } from './survey-editor.tsx';

const manuscript = buildManuscript({ id: 31, title: 'The Salt Road' });

function setUp(surveyType: SurveyType, loaded: Response = jsonResponse(404, { error: 'none' })) {
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    if (url === `/manuscript/31/survey/${surveyType}` && (init.method ?? 'GET') === 'GET') {
      return loaded.clone();
    }
    if (url === '/manuscript/survey') {
      const body = JSON.parse(String(init.body));
      return jsonResponse(200, {
        survey: {
          ...buildQuestionnaire(),
          surveyType,
          questions: body.questions,
          autoApprove: body.autoApprove,
          autoApprovePercent: body.autoApprovePercent,
        },
      });
    }
    return jsonResponse(404, { error: 'Not found.' });
  });
  vi.stubGlobal('fetch', fetchMock);
  renderWithApp(<SurveyEditor manuscript={manuscript} surveyType={surveyType} />, {
    config: buildConfig('dashboard'),
  });
  return fetchMock;
}

const questionCards = () => Array.from(document.querySelectorAll<HTMLElement>('[data-question]'));

describe('survey drafts', () => {
  it('refuses the canned Yes/No when the question has choices, and adds them otherwise', () => {
    const withChoices = emptyQuestion();
    expect(withChoices.choices).toHaveLength(2);
    const refused = addYesNo(withChoices);
    expect(refused.refused).toBe(YES_NO_REFUSED);
    expect(refused.question).toBe(withChoices);

    const added = addYesNo({ ...withChoices, choices: [] });
    expect(added.refused).toBeNull();
    expect(added.question.choices.map((choice) => choice.choice)).toEqual(['Yes', 'No']);
  });

  it('moves items up and down, and not past the ends', () => {
    expect(move(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(move(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(move(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(move(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('the questionnaire editor', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('starts empty on a 404, with auto-approval off at 85 %', async () => {
    setUp('questionaire');
    expect(await screen.findByText(/No questionnaire yet/)).toBeTruthy();
    expect(AUTO_APPROVE_PERCENT_DEFAULT).toBe(85);
    expect((screen.getByLabelText('Pass mark') as HTMLInputElement).value).toBe('85');
    expect(
      (screen.getByRole('checkbox', { name: /Approve readers automatically/ }) as HTMLInputElement)
        .checked,
    ).toBe(false);
    expect(screen.queryByRole('link', { name: 'See the answers' })).toBeNull();
  });

  it('refuses Yes/No on a question with choices with an inline message', async () => {
    setUp('questionaire');
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    const card = questionCards()[0]!;
    fireEvent.click(within(card).getByRole('button', { name: 'Yes/No' }));
    expect(within(card).getByRole('alert').textContent).toBe(YES_NO_REFUSED);
    expect(within(card).getAllByRole('textbox', { name: /^Choice/ })).toHaveLength(2);

    fireEvent.click(within(card).getByRole('button', { name: 'Remove choice 2' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Remove choice 1' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Yes/No' }));
    expect(within(card).queryByRole('alert')).toBeNull();
    const choices = within(card).getAllByRole('textbox', { name: /^Choice/ }) as HTMLInputElement[];
    expect(choices.map((input) => input.value)).toEqual(['Yes', 'No']);
  });

  it('saves questions in their order with choices, right answers and auto-approval', async () => {
    const fetchMock = setUp('questionaire');
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    const [first, second] = questionCards() as [HTMLElement, HTMLElement];

    fireEvent.change(within(first).getByLabelText('Question'), {
      target: { value: 'Which coast?' },
    });
    const [east, west] = within(first).getAllByRole('textbox', {
      name: /^Choice/,
    }) as HTMLInputElement[];
    fireEvent.change(east!, { target: { value: 'East' } });
    fireEvent.change(west!, { target: { value: 'West' } });
    fireEvent.click(within(first).getByRole('radio', { name: 'Choice 2 is a right answer' }));

    fireEvent.change(within(second).getByLabelText('Question'), {
      target: { value: 'Why this book?' },
    });
    fireEvent.change(within(second).getByLabelText('Answer type'), {
      target: { value: 'shortAnswer' },
    });
    fireEvent.click(within(second).getByRole('checkbox', { name: 'Readers may add a comment' }));
    // The short answer goes first.
    fireEvent.click(within(second).getByRole('button', { name: 'Move question 2 up' }));

    fireEvent.click(screen.getByRole('checkbox', { name: /Approve readers automatically/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Save questionnaire' }));

    expect(await screen.findByText('Questionnaire saved!')).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/manuscript/survey') as [
      string,
      RequestInit,
    ];
    const body = JSON.parse(String(init.body));
    expect(body).toMatchObject({
      manuscript_id: 31,
      surveyType: 'questionaire',
      autoApprove: true,
      autoApprovePercent: 85,
    });
    const questions = (Object.values(body.questions) as Array<{ order: number }>).sort(
      (a, b) => a.order - b.order,
    );
    expect(questions).toEqual([
      {
        question: 'Why this book?',
        questionType: 'shortAnswer',
        order: 0,
        allowComments: true,
        choices: [],
      },
      {
        question: 'Which coast?',
        questionType: 'multipleChoice',
        order: 1,
        allowComments: false,
        choices: [
          { choiceId: expect.any(String), choice: 'East', correctChoice: false },
          { choiceId: expect.any(String), choice: 'West', correctChoice: true },
        ],
      },
    ]);
    for (const id of Object.keys(body.questions)) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(await screen.findByRole('link', { name: 'See the answers' })).toHaveProperty(
      'href',
      expect.stringContaining('/manuscript/31/survey/questionaire/responses'),
    );
  });

  it('does not send a question without text or with empty choices', async () => {
    const fetchMock = setUp('questionaire');
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save questionnaire' }));
    expect(await screen.findByText('Write the question.')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([url]) => url === '/manuscript/survey')).toBe(false);
  });

  it('loads the saved questionnaire into the editor', async () => {
    setUp(
      'questionaire',
      jsonResponse(200, { survey: buildQuestionnaire({ autoApprovePercent: 60 }) }),
    );
    await waitFor(() => expect(questionCards()).toHaveLength(3));
    expect((screen.getByLabelText('Pass mark') as HTMLInputElement).value).toBe('60');
    expect(
      (within(questionCards()[0]!).getByLabelText('Question') as HTMLTextAreaElement).value,
    ).toBe('Which coast is the story set on?');
  });
});

describe('the feedback survey editor', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('has no auto-approval and no right answers', async () => {
    setUp('feedback');
    expect(await screen.findByText(/No feedback survey yet/)).toBeTruthy();
    expect(screen.queryByLabelText('Pass mark')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add question' }));
    expect(screen.queryByRole('radio', { name: /right answer/ })).toBeNull();
  });
});
