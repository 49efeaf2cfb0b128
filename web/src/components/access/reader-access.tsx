import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  MESSAGES,
  readerPageResponse,
  readerResponse,
  type Bookmark,
  type Invite,
  type Manuscript,
  type SurveyType,
} from '@margins/common';
import { z } from 'zod';
import {
  acceptErrorMessage,
  acceptInvite,
  declineErrorMessage,
  declineInvite,
} from '../../api/access.ts';
import { api } from '../../api/client.ts';
import { readerUrl } from '../../api/manuscripts.ts';
import { reloadPage } from '../../lib/navigation.ts';
import { usePageConfig } from '../../page-config.ts';
import { Dialog } from '../dialog.tsx';
import { useFlash, useToast } from '../feedback/feedback.tsx';
import { FeedbackDialog } from '../surveys/feedback-dialog.tsx';
import { SurveyEditor } from '../surveys/survey-editor.tsx';
import { BookmarkControl } from './bookmark-control.tsx';
import { StopReadingButton } from '../insights/stop-reading.tsx';
import { useReadingRecorder } from '../insights/use-reading-recorder.ts';
import { SharePanel } from './share-panel.tsx';

/** The access part of the reader's page data (issue 5): the gate, surveys, read, invites. */
const readerAccessSchema = readerPageResponse.pick({
  gate: true,
  questionnaire: true,
  feedback_survey: true,
  feedback_submitted: true,
  bookmark: true,
  invites: true,
  currentUserInvites: true,
});
type ReaderAccessData = z.infer<typeof readerAccessSchema>;

/**
 * The viewer's access state of a manuscript: from the reader page's data, or (after an in-app
 * navigation, when the page has none) from its JSON. Null when the server sends none.
 */
export function useReaderAccess(manuscriptId: number): ReaderAccessData | null {
  const { data } = usePageConfig();
  const fromPage = useMemo(() => readerAccessSchema.safeParse(data), [data]);
  // The page's own data is the reader's (without access fields, nothing to fetch), or none.
  const pageIsReader = useMemo(() => readerResponse.safeParse(data).success, [data]);
  const query = useQuery({
    queryKey: ['reader-access', manuscriptId],
    queryFn: async () => readerAccessSchema.parse(await api.get(readerUrl(manuscriptId))),
    enabled: !pageIsReader && manuscriptId > 0,
    retry: false,
  });
  return fromPage.success ? fromPage.data : (query.data ?? null);
}

/** Past this share of the text, the reader has reached the end. */
const END_OF_TEXT = 0.97;

function ToolButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className="btn btn-secondary" onClick={onClick}>
      {children}
    </button>
  );
}

const EDITOR_TITLES: Record<SurveyType, string> = {
  questionaire: 'Questionnaire',
  feedback: 'Feedback survey',
};

/** The viewer's pending invite to this manuscript, with Accept and Decline. */
function InviteBanner({ invite, onDone }: { invite: Invite; onDone: (accepted: boolean) => void }) {
  const flash = useFlash();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const respond = async (accept: boolean) => {
    setBusy(true);
    try {
      if (accept) {
        await acceptInvite(invite.id);
        toast(MESSAGES.addedToReads);
      } else {
        await declineInvite(invite.id);
        toast('Invite declined.');
      }
      onDone(accept);
    } catch (error) {
      flash(accept ? acceptErrorMessage(error) : declineErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      className="mx-auto mt-5 flex max-w-[36rem] flex-wrap items-center justify-center gap-3 rounded-xl border border-accent/30 bg-accent-soft/60 px-4 py-3 text-sm"
      data-invite-banner
    >
      <span>{invite.manuscript.author.display_name} invited you to read this.</span>
      <span className="flex gap-2">
        <button
          type="button"
          className="btn btn-primary min-h-8 px-4"
          disabled={busy}
          onClick={() => void respond(true)}
        >
          Accept
        </button>
        <button
          type="button"
          className="btn btn-ghost min-h-8 px-3"
          disabled={busy}
          onClick={() => void respond(false)}
        >
          Decline
        </button>
      </span>
    </div>
  );
}

/**
 * The reader's access controls under the title. The author: Share, Questionnaire and
 * Feedback survey editors. A logged-in reader past the gate: the bookmark control and "Give
 * feedback" (also offered when they reach the end), and progress reported for their read.
 */
export function ReaderAccessTools(props: ReaderAccessToolsProps) {
  // Fetched access data (after an in-app navigation) arrives late: start again with it.
  return <AccessTools key={props.access ? 'loaded' : 'none'} {...props} />;
}

interface ReaderAccessToolsProps {
  manuscript: Manuscript;
  access: ReaderAccessData | null;
  isAuthor: boolean;
  userId: number | null;
  textShown: boolean;
  blockIndex: number;
  progress: number;
}

function AccessTools({
  manuscript,
  access,
  isAuthor,
  userId,
  textShown,
  blockIndex,
  progress,
}: ReaderAccessToolsProps) {
  const [bookmark, setBookmark] = useState<Bookmark | null>(access?.bookmark ?? null);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [feedbackSubmitted, setFeedbackSubmitted] = useState(access?.feedback_submitted ?? false);
  const [offerDismissed, setOfferDismissed] = useState(false);
  const [editor, setEditor] = useState<'share' | SurveyType | null>(null);
  const [ownInvites, setOwnInvites] = useState<Invite[]>(access?.currentUserInvites ?? []);
  const reader = !isAuthor && userId !== null;
  const feedbackSurvey = access?.feedback_survey ?? null;

  // One recorder: reading time per block, and the furthest position on the read.
  useReadingRecorder(manuscript.id, reader && textShown && bookmark !== null, blockIndex, progress);

  const atEnd = textShown && progress >= END_OF_TEXT;
  const offerFeedback =
    reader && feedbackSurvey !== null && !feedbackSubmitted && atEnd && !offerDismissed;

  if (isAuthor) {
    return (
      <>
        <div className="mt-3 flex flex-wrap justify-center gap-2" data-access-tools="author">
          <ToolButton onClick={() => setEditor('share')}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
              <path d="M14.5 2.5a3 3 0 1 1-2.6 4.5L8 9.1a3 3 0 0 1 0 1.8l3.9 2.1a3 3 0 1 1-.7 1.4l-3.9-2.1a3 3 0 1 1 0-4.6l3.9-2.1a3 3 0 0 1 3.3-3.2Z" />
            </svg>
            Share
          </ToolButton>
          <ToolButton onClick={() => setEditor('questionaire')}>Questionnaire</ToolButton>
          <ToolButton onClick={() => setEditor('feedback')}>Feedback survey</ToolButton>
        </div>
        {editor ? (
          <Dialog
            title={editor === 'share' ? 'Share' : EDITOR_TITLES[editor]}
            description={manuscript.title}
            placement="right"
            onClose={() => setEditor(null)}
            testId={`reader-${editor}-dialog`}
          >
            {editor === 'share' ? (
              <SharePanel manuscript={manuscript} />
            ) : (
              <SurveyEditor manuscript={manuscript} surveyType={editor} />
            )}
          </Dialog>
        ) : null}
      </>
    );
  }

  if (!reader) return null;

  return (
    <>
      {ownInvites[0] ? (
        <InviteBanner
          invite={ownInvites[0]}
          onDone={(accepted) => {
            setOwnInvites((current) => current.slice(1));
            if (accepted) reloadPage();
          }}
        />
      ) : null}
      {textShown ? (
        <div className="mt-5 flex flex-wrap justify-center gap-2" data-access-tools="reader">
          <BookmarkControl
            manuscriptId={manuscript.id}
            bookmark={bookmark}
            onChange={setBookmark}
          />
          {feedbackSurvey ? (
            <ToolButton onClick={() => setFeedbackOpen(true)}>
              {feedbackSubmitted ? 'Feedback sent ✓' : 'Give feedback'}
            </ToolButton>
          ) : null}
          {bookmark ? (
            <StopReadingButton
              manuscriptId={manuscript.id}
              authorName={manuscript.author.display_name}
            />
          ) : null}
        </div>
      ) : null}

      {offerFeedback && !feedbackOpen ? (
        <aside
          aria-label="Feedback"
          className="fixed right-3 bottom-20 left-3 z-30 mx-auto max-w-sm rounded-2xl border border-line bg-surface p-4 text-left shadow-lift sm:left-auto lg:right-6 lg:bottom-6"
          data-feedback-offer
        >
          <p className="font-serif text-lg font-semibold">You reached the end</p>
          <p className="mt-1 text-sm text-muted">
            {manuscript.author.display_name} would love to hear what you thought.
          </p>
          <div className="mt-3 flex gap-2">
            <button
              type="button"
              className="btn btn-primary min-h-9 px-4"
              onClick={() => setFeedbackOpen(true)}
            >
              Give feedback
            </button>
            <button
              type="button"
              className="btn btn-ghost min-h-9 px-3"
              onClick={() => setOfferDismissed(true)}
            >
              Not now
            </button>
          </div>
        </aside>
      ) : null}

      {feedbackOpen && feedbackSurvey && userId !== null ? (
        <FeedbackDialog
          survey={feedbackSurvey}
          manuscriptId={manuscript.id}
          manuscriptTitle={manuscript.title}
          userId={userId}
          submitted={feedbackSubmitted}
          onSubmitted={() => setFeedbackSubmitted(true)}
          onClose={() => {
            setFeedbackOpen(false);
            if (feedbackSubmitted) setOfferDismissed(true);
          }}
        />
      ) : null}
    </>
  );
}
