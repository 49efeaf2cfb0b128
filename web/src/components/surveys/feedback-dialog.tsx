import { useRef } from 'react';
import type { Survey } from '@margins/common';
import { Dialog } from '../dialog.tsx';
import { SurveyAnswerForm } from './survey-answer-form.tsx';

/** SPEC §4: once the feedback survey is sent, a thanks message. */
export const FEEDBACK_THANKS = 'Thank you for your feedback!';

/**
 * The feedback survey modal: the author's questions, then the thanks message once sent (and
 * for readers who already answered it).
 */
export function FeedbackDialog({
  survey,
  manuscriptId,
  manuscriptTitle,
  userId,
  submitted,
  onSubmitted,
  onClose,
}: {
  survey: Survey;
  manuscriptId: number;
  manuscriptTitle: string;
  userId: number;
  submitted: boolean;
  onSubmitted: () => void;
  onClose: () => void;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title={submitted ? FEEDBACK_THANKS : 'Feedback for the author'}
      description={manuscriptTitle}
      onClose={onClose}
      testId="feedback-dialog"
      initialFocus={submitted ? closeRef : undefined}
    >
      {submitted ? (
        <div className="text-center" role="status">
          <p className="font-serif text-lg leading-relaxed text-muted">
            Your answers are on their way to the author. Notes like yours are what make the next
            draft better.
          </p>
          <button ref={closeRef} type="button" className="btn btn-primary mt-6" onClick={onClose}>
            Back to the manuscript
          </button>
        </div>
      ) : (
        <SurveyAnswerForm
          survey={survey}
          manuscriptId={manuscriptId}
          userId={userId}
          requireAll={false}
          submitLabel="Send feedback"
          onSubmitted={onSubmitted}
          onAlreadyAnswered={onSubmitted}
        />
      )}
    </Dialog>
  );
}
