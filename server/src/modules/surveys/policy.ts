import type { SurveyType } from '@margins/common';
import {
  canOpen,
  canRead,
  isOwner,
  readGate,
  type PolicyManuscript,
  type PolicyUser,
  type ReaderAccess,
} from '../access/policy.ts';
import { canEdit } from '../manuscripts/policy.ts';

/**
 * view: see the survey; answer: submit answers; manage: create, replace or delete it;
 * see_answers: the survey answers page; approve: approve a questionnaire answer.
 */
export type SurveyAction = 'view' | 'answer' | 'manage' | 'see_answers' | 'approve';

/**
 * The questionnaire is the gate, so whoever may open the manuscript sees and answers it (once
 * 18+ is certified for mature text); the feedback survey is for readers past every gate. Only
 * the author manages surveys, sees the answers and approves them.
 */
export function can(
  user: PolicyUser,
  action: SurveyAction,
  surveyType: SurveyType,
  manuscript: PolicyManuscript,
  access: ReaderAccess,
): boolean {
  const isQuestionnaire = surveyType === 'questionaire';
  switch (action) {
    case 'view':
      return isQuestionnaire
        ? canOpen(user, manuscript, access)
        : canRead(user, manuscript, access);
    case 'answer':
      if (user === null || isOwner(user, manuscript)) return false;
      if (!isQuestionnaire) return canRead(user, manuscript, access);
      return canOpen(user, manuscript, access) && readGate(user, manuscript, access) !== 'mature';
    case 'manage':
    case 'see_answers':
    case 'approve':
      return canEdit(user, manuscript);
  }
}
