import type { ComponentProps } from 'react';
import { Dialog } from '../../../components/dialog.tsx';
import { ManuscriptForm } from '../../../components/manuscripts/manuscript-form.tsx';
import { NewDraftControl } from '../../../components/manuscripts/new-draft.tsx';
import { reloadPage } from '../../../lib/navigation.ts';

type FormProps = ComponentProps<typeof ManuscriptForm>;

/** The owner's edit panel on the reader: the manuscript's details, and a new draft. */
export function ReaderEditDialog({
  manuscript,
  onSaved,
  onClose,
}: {
  manuscript: FormProps['manuscript'];
  onSaved: FormProps['onSaved'];
  onClose: () => void;
}) {
  return (
    <Dialog
      title="Edit manuscript"
      description={manuscript.title}
      placement="right"
      onClose={onClose}
      testId="reader-edit-dialog"
    >
      <div className="space-y-8">
        <ManuscriptForm manuscript={manuscript} onSaved={onSaved} />
        <div className="border-t border-line pt-6">
          <NewDraftControl
            manuscript={manuscript}
            doneText="The new draft is ready. Reloading…"
            onDone={() => reloadPage()}
          />
        </div>
      </div>
    </Dialog>
  );
}
