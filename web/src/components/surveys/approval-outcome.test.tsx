import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Manuscript } from '@margins/common';
import { jsonResponse } from '../access/test-fixtures.ts';
import { ManuscriptForm } from '../manuscripts/manuscript-form.tsx';
import { buildConfig } from '../../test/factories.ts';
import { buildCatalogue, buildManuscript } from '../../test/manuscripts.ts';
import { renderWithApp } from '../../test/render.tsx';
import { approvalOutcome } from './approval-outcome.ts';
import { SurveyEditor } from './survey-editor.tsx';

function renderQuestionnaire(manuscript: Manuscript) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => jsonResponse(404, { error: 'none' })),
  );
  renderWithApp(<SurveyEditor manuscript={manuscript} surveyType="questionaire" />, {
    config: buildConfig('dashboard'),
  });
}

const outcome = () => document.querySelector('[data-approval-outcome]')?.textContent ?? '';

describe('approve-first and auto-approve say the same thing as the rule', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('approvalOutcome follows the server rule', () => {
    expect(
      approvalOutcome({ approvalsRequired: true, autoApprove: true, autoApprovePercent: 85 }),
    ).toMatch(/every reader who answers waits for your approval.*nobody is approved automatically/);
    expect(
      approvalOutcome({ approvalsRequired: false, autoApprove: true, autoApprovePercent: 70 }),
    ).toMatch(/score 70% or more read at once; the others wait/);
    expect(
      approvalOutcome({ approvalsRequired: false, autoApprove: false, autoApprovePercent: 85 }),
    ).toMatch(/every reader who answers waits for your approval\.$/);
  });

  it('the Info tab no longer promises that passing the questionnaire is enough', () => {
    vi.stubGlobal('fetch', vi.fn());
    renderWithApp(
      <ManuscriptForm
        manuscript={buildManuscript()}
        categories={buildCatalogue()}
        onSaved={vi.fn()}
      />,
      { config: buildConfig('dashboard') },
    );
    const toggle = screen.getByRole('checkbox', { name: /Approve readers first/ });
    const hint = document.getElementById(
      toggle.getAttribute('aria-describedby') ?? '',
    )?.textContent;
    const text = hint ?? document.body.textContent ?? '';
    expect(text).not.toContain('or pass your questionnaire');
    expect(text).toContain('even with a passing score');
  });

  it('the Questionnaire tab says what will happen, and follows the auto-approve box', async () => {
    renderQuestionnaire(buildManuscript({ approvals_required: false }));
    await screen.findByText(/No questionnaire yet/);
    expect(outcome()).toBe('What happens: every reader who answers waits for your approval.');
    fireEvent.click(screen.getByRole('checkbox', { name: /Approve readers automatically/ }));
    expect(outcome()).toMatch(/score 85% or more read at once/);
  });

  it('with approve-first on, the Questionnaire tab says everyone waits, passing or not', async () => {
    renderQuestionnaire(buildManuscript({ approvals_required: true }));
    await screen.findByText(/No questionnaire yet/);
    fireEvent.click(screen.getByRole('checkbox', { name: /Approve readers automatically/ }));
    expect(outcome()).toMatch(/whatever their score.*nobody is approved automatically/);
  });
});
