import {
  AUTO_APPROVE_PERCENT_DEFAULT,
  type QUESTION_TYPES,
  type Survey,
  type SurveyBody,
  type SurveyQuestion,
  type SurveyType,
} from '@margins/common';

/**
 * The survey editor's working copy: questions in order, each with its choices. Ids are the
 * ones the server keeps (question id → question; choiceId within a question), so a saved
 * survey keeps its ids and the answers already given still match.
 */
export type QuestionType = (typeof QUESTION_TYPES)[number];

export interface DraftChoice {
  choiceId: string;
  choice: string;
  correctChoice: boolean;
}

export interface DraftQuestion {
  id: string;
  question: string;
  questionType: QuestionType;
  allowComments: boolean;
  choices: DraftChoice[];
}

export interface SurveyDraft {
  questions: DraftQuestion[];
  autoApprove: boolean;
  autoApprovePercent: number;
}

/** Human names of the question types. */
export const QUESTION_TYPE_LABELS: Record<QuestionType, string> = {
  multipleChoice: 'Multiple choice (one answer)',
  multipleAnswer: 'Multiple answers (tick all that apply)',
  shortAnswer: 'Short answer (text)',
};

/** SPEC §5: the canned Yes/No choices go only to a question without choices. */
export const YES_NO_REFUSED = 'Yes/No can only be added to a question without choices.';

let counter = 0;
/** A new id the server accepts (letters, digits, _ and -), unique enough within a survey. */
function newKey(prefix: 'q' | 'c'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export function emptyChoice(choice = ''): DraftChoice {
  return { choiceId: newKey('c'), choice, correctChoice: false };
}

export function emptyQuestion(): DraftQuestion {
  return {
    id: newKey('q'),
    question: '',
    questionType: 'multipleChoice',
    allowComments: false,
    choices: [emptyChoice(), emptyChoice()],
  };
}

/** A survey with nothing in it yet (404: none). Auto-approval starts off, at 85 %. */
export function emptyDraft(): SurveyDraft {
  return { questions: [], autoApprove: false, autoApprovePercent: AUTO_APPROVE_PERCENT_DEFAULT };
}

/** The questions of a survey in their order (ties by id, so the order is stable). */
export function orderedQuestions(
  questions: Record<string, SurveyQuestion>,
): Array<[string, SurveyQuestion]> {
  return Object.entries(questions).sort(
    ([idA, a], [idB, b]) => a.order - b.order || idA.localeCompare(idB),
  );
}

/** The editor's copy of a saved survey. */
export function draftFromSurvey(survey: Survey): SurveyDraft {
  return {
    questions: orderedQuestions(survey.questions).map(([id, question]) => ({
      id,
      question: question.question,
      questionType: question.questionType,
      allowComments: question.allowComments,
      choices: question.choices.map((choice) => ({
        choiceId: choice.choiceId,
        choice: choice.choice,
        correctChoice: choice.correctChoice ?? false,
      })),
    })),
    autoApprove: survey.autoApprove,
    autoApprovePercent: survey.autoApprovePercent,
  };
}

/** Adds Yes and No to a question, or says why not (it has choices already). */
export function addYesNo(
  question: DraftQuestion,
): { question: DraftQuestion; refused: null } | { question: DraftQuestion; refused: string } {
  if (question.choices.length > 0) return { question, refused: YES_NO_REFUSED };
  return {
    question: { ...question, choices: [emptyChoice('Yes'), emptyChoice('No')] },
    refused: null,
  };
}

/** Moves an item one place up (-1) or down (+1); the list unchanged at its ends. */
export function move<T>(items: T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (index < 0 || target < 0 || target >= items.length) return items;
  const copy = [...items];
  [copy[index], copy[target]] = [copy[target]!, copy[index]!];
  return copy;
}

/** A choice question needs choices; a short answer keeps none. */
export const takesChoices = (type: QuestionType) => type !== 'shortAnswer';

/**
 * What is wrong with the draft before it goes to the server (the server checks the same):
 * by question id, plus `_` for the survey as a whole.
 */
export function draftProblems(draft: SurveyDraft, surveyType: SurveyType): Record<string, string> {
  const problems: Record<string, string> = {};
  if (draft.questions.length === 0) problems._ = 'Add a question first.';
  for (const question of draft.questions) {
    if (!question.question.trim()) {
      problems[question.id] = 'Write the question.';
      continue;
    }
    if (!takesChoices(question.questionType)) continue;
    const choices = question.choices.filter((choice) => choice.choice.trim());
    if (choices.length !== question.choices.length) {
      problems[question.id] = 'Fill in every choice, or remove the empty ones.';
    } else if (choices.length < 2) {
      problems[question.id] = 'Give at least two choices.';
    } else if (
      question.questionType === 'multipleChoice' &&
      choices.filter((choice) => choice.correctChoice).length > 1
    ) {
      problems[question.id] = 'A multiple-choice question has one right answer at most.';
    }
  }
  if (
    surveyType === 'questionaire' &&
    (!Number.isInteger(draft.autoApprovePercent) ||
      draft.autoApprovePercent < 0 ||
      draft.autoApprovePercent > 100)
  ) {
    problems.autoApprovePercent = 'Use a whole number from 0 to 100.';
  }
  return problems;
}

/** The POST /manuscript/survey body of a draft. */
export function surveyBodyOf(
  manuscriptId: number,
  surveyType: SurveyType,
  draft: SurveyDraft,
): SurveyBody {
  const questions: SurveyBody['questions'] = {};
  draft.questions.forEach((question, index) => {
    questions[question.id] = {
      question: question.question.trim(),
      questionType: question.questionType,
      order: index,
      allowComments: question.allowComments,
      choices: takesChoices(question.questionType)
        ? question.choices.map((choice) => ({
            choiceId: choice.choiceId,
            choice: choice.choice.trim(),
            correctChoice: choice.correctChoice,
          }))
        : [],
    };
  });
  const isQuestionnaire = surveyType === 'questionaire';
  return {
    manuscript_id: manuscriptId,
    surveyType,
    questions,
    autoApprove: isQuestionnaire && draft.autoApprove,
    autoApprovePercent: isQuestionnaire ? draft.autoApprovePercent : AUTO_APPROVE_PERCENT_DEFAULT,
  };
}
