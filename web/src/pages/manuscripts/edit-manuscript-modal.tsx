import { useRef, useState, type KeyboardEvent } from 'react';
import type { GenreCategory, Manuscript, UploadResponse } from '@margins/common';
import { readerUrl } from '../../api/manuscripts.ts';
import { SharePanel } from '../../components/access/share-panel.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ManuscriptForm } from '../../components/manuscripts/manuscript-form.tsx';
import { NewDraftControl } from '../../components/manuscripts/new-draft.tsx';
import { SurveyEditor } from '../../components/surveys/survey-editor.tsx';

/** The edit modal's tabs (SPEC §2). */
const TABS = [
  { id: 'info', label: 'manuscript Info' },
  { id: 'questionaire', label: 'Questionnaire' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'share', label: 'Share' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * The dashboard's per-manuscript edit modal, with its tabs: manuscript Info (the edit form
 * and a new draft), the Questionnaire and Feedback survey editors, and Share.
 */
export function EditManuscriptModal({
  manuscript,
  categories,
  onSaved,
  onDraftUploaded,
  onDraftDone,
  onClose,
}: {
  manuscript: Manuscript;
  categories: GenreCategory[] | null;
  onSaved: (manuscript: Manuscript) => void;
  onDraftUploaded: (response: UploadResponse) => void;
  onDraftDone: (manuscript: Manuscript) => void;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<TabId>('info');
  // A tab's panel is made when first opened, and kept (unsaved survey edits survive a switch).
  const [opened, setOpened] = useState<ReadonlySet<TabId>>(() => new Set<TabId>(['info']));
  if (!opened.has(tab)) setOpened(new Set([...opened, tab]));
  const tabRefs = useRef(new Map<TabId, HTMLButtonElement>());

  const handleTabKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((candidate) => candidate.id === tab);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: TABS.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = TABS[(target + TABS.length) % TABS.length];
    if (!next) return;
    setTab(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  return (
    <Dialog
      title={manuscript.title}
      description={
        <>
          Edit how it appears and who can read it ·{' '}
          <a href={readerUrl(manuscript.id)}>Open in the reader</a>
        </>
      }
      onClose={onClose}
      testId="edit-manuscript-dialog"
    >
      <div
        role="tablist"
        aria-label="Manuscript settings"
        className="-mx-5 mb-6 flex gap-1 overflow-x-auto border-b border-line px-5 sm:-mx-7 sm:px-7"
      >
        {TABS.map((candidate) => {
          const selected = candidate.id === tab;
          return (
            <button
              key={candidate.id}
              ref={(element) => {
                if (element) tabRefs.current.set(candidate.id, element);
              }}
              type="button"
              role="tab"
              id={`edit-tab-${candidate.id}`}
              aria-selected={selected}
              aria-controls={`edit-panel-${candidate.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => setTab(candidate.id)}
              onKeyDown={handleTabKeyDown}
              className={`-mb-px shrink-0 cursor-pointer border-b-2 px-3 py-2.5 text-sm font-semibold whitespace-nowrap transition-colors ${
                selected
                  ? 'border-accent text-accent'
                  : 'border-transparent text-muted hover:border-line hover:text-ink'
              }`}
            >
              {/* SPEC's tab name, shown with a capital. */}
              <span className="inline-block first-letter:uppercase">{candidate.label}</span>
            </button>
          );
        })}
      </div>
      <section
        role="tabpanel"
        id="edit-panel-info"
        aria-labelledby="edit-tab-info"
        hidden={tab !== 'info'}
        className="space-y-8"
      >
        <ManuscriptForm
          // The Share tab may change the visibility: the form starts again from the new one.
          key={manuscript.visibility}
          manuscript={manuscript}
          categories={categories}
          onSaved={onSaved}
        />
        <div className="border-t border-line pt-6">
          <NewDraftControl
            manuscript={manuscript}
            onUploaded={onDraftUploaded}
            onDone={onDraftDone}
          />
        </div>
      </section>
      {(['questionaire', 'feedback'] as const).map((surveyType) => (
        <section
          key={surveyType}
          role="tabpanel"
          id={`edit-panel-${surveyType}`}
          aria-labelledby={`edit-tab-${surveyType}`}
          hidden={tab !== surveyType}
        >
          {opened.has(surveyType) ? (
            <SurveyEditor manuscript={manuscript} surveyType={surveyType} />
          ) : null}
        </section>
      ))}
      <section
        role="tabpanel"
        id="edit-panel-share"
        aria-labelledby="edit-tab-share"
        hidden={tab !== 'share'}
      >
        {opened.has('share') ? (
          <SharePanel
            manuscript={manuscript}
            onVisibilityChanged={(visibility) => onSaved({ ...manuscript, visibility })}
          />
        ) : null}
      </section>
    </Dialog>
  );
}
