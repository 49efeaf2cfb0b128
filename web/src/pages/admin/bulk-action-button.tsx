import { useState } from 'react';
import { TextField as MuiTextField } from '@mui/material';
import {
  Button,
  Confirm,
  useListContext,
  useNotify,
  useRefresh,
  useResourceContext,
  useUnselectAll,
} from 'react-admin';
import { ADMIN_BULK_ACTIONS_WITH_REASON, ADMIN_UI_MESSAGES } from '@margins/common';
import type { BulkActionMeta } from './admin-types.ts';
import { useAdminSetup } from './admin-meta.ts';

/**
 * One of a section's bulk actions over the selected rows (`POST /admin/api/S/bulk`). An
 * action with a confirm text asks first (and, for flag and suspend, for the reason); the
 * server's answer says how many items changed.
 */
export function BulkActionButton({ action }: { action: BulkActionMeta }) {
  const { selectedIds } = useListContext();
  const resource = useResourceContext() ?? '';
  const { dataProvider } = useAdminSetup();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [running, setRunning] = useState(false);
  const takesReason = ADMIN_BULK_ACTIONS_WITH_REASON.includes(action.name);

  const run = async () => {
    setRunning(true);
    try {
      const input = takesReason && reason.trim() ? { reason: reason.trim() } : undefined;
      const { affected } = await dataProvider.bulk(resource, action.name, selectedIds, input);
      notify(ADMIN_UI_MESSAGES.bulkDone(action.label, affected), { type: 'success' });
      unselectAll();
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setRunning(false);
      setOpen(false);
      setReason('');
    }
  };

  const asks = action.confirm !== null || takesReason;
  return (
    <>
      <Button
        label={action.label}
        disabled={running}
        onClick={() => (asks ? setOpen(true) : void run())}
      />
      <Confirm
        isOpen={open}
        loading={running}
        title={ADMIN_UI_MESSAGES.bulkConfirmTitle(action.label, selectedIds.length)}
        content={
          <>
            {action.confirm ? <p>{action.confirm}</p> : null}
            {takesReason ? (
              <MuiTextField
                label={ADMIN_UI_MESSAGES.bulkReasonLabel}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                fullWidth
                multiline
                minRows={2}
                margin="dense"
              />
            ) : null}
          </>
        }
        confirm={action.label}
        onConfirm={() => void run()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
