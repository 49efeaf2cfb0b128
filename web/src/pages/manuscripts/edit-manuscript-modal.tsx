import { useState } from 'react';
import type { GenreCategory, Manuscript, UploadResponse } from '@margins/common';
import { readerUrl } from '../../api/manuscripts.ts';
import { SharePanel } from '../../components/access/share-panel.tsx';
import { Dialog } from '../../components/dialog.tsx';
import { ConversionReportPanel } from '../../components/manuscripts/conversion-report.tsx';
import { ManuscriptForm } from '../../components/manuscripts/manuscript-form.tsx';
import { NewDraftControl } from '../../components/manuscripts/new-draft.tsx';
import { SurveyEditor } from '../../components/surveys/survey-editor.tsx';
import { InsightsTab } from '../../components/insights/insights-tab.tsx';
import { TabList } from '../../components/tab-list.tsx';

/** The edit modal's tabs (SPEC §2). */
const TABS = [
  { id: 'info', label: 'manuscript Info' },
  { id: 'questionaire', label: 'Questionnaire' },
  { id: 'feedback', label: 'Feedback' },
  { id: 'share', label: 'Share' },
  { id: 'insights', label: 'Insights' },
] as const;
type TabId = (typeof TABS)[number]['id'];
const TAB_ITEMS = TABS.map((candidate) => ({
  id: candidate.id,
  // SPEC's tab name, shown with a capital.
  label: <span className="inline-block first-letter:uppercase">{candidate.label}</span>,
}));

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
      <TabList
        tabs={TAB_ITEMS}
        selected={tab}
        onSelect={setTab}
        label="Manuscript settings"
        idPrefix="edit-"
        className="-mx-5 mb-6 flex gap-1 overflow-x-auto border-b border-line px-5 sm:-mx-7 sm:px-7"
      />
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
        {manuscript.inking ? null : (
          <div className="border-t border-line pt-6">
            <ConversionReportPanel manuscriptId={manuscript.id} updated={manuscript.updated} />
          </div>
        )}
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
      <section
        role="tabpanel"
        id="edit-panel-insights"
        aria-labelledby="edit-tab-insights"
        hidden={tab !== 'insights'}
      >
        {tab === 'insights' ? <InsightsTab manuscriptId={manuscript.id} /> : null}
      </section>
    </Dialog>
  );
}
