import { useState } from 'react';
import { TextField as MuiTextField } from '@mui/material';
import { Button, Confirm, useNotify } from 'react-admin';
import { ADMIN_UI_MESSAGES, type ReportGroup } from '@margins/common';
import { useAdminSetup } from './admin-meta.ts';

/** The queue's actions (moderation-report bulk actions over one group's reports). */
interface QueueAction {
  name: string;
  label: string;
  /** Asked before it runs. */
  confirm: string | null;
  needsReason: boolean;
}

/** The actions that make sense for this element, in the order a moderator weighs them. */
function actionsFor(group: ReportGroup): QueueAction[] {
  const actions: QueueAction[] = [];
  if (!group.missing) {
    actions.push({
      name: 'flag',
      label: group.moderation_flag ? 'Flag again' : 'Flag',
      confirm: 'Readers will see the reason you give.',
      needsReason: true,
    });
  }
  if (group.moderation_flag) {
    actions.push({ name: 'clear-flag', label: 'Clear flag', confirm: null, needsReason: false });
  }
  if (group.open_count > 0) {
    actions.push({ name: 'dismiss', label: 'Dismiss', confirm: null, needsReason: false });
  }
  if (group.model_name === 'comment' && !group.missing) {
    actions.push({
      name: 'delete-comment',
      label: 'Delete comment',
      confirm: 'Delete this comment? Its writer and readers no longer see it.',
      needsReason: false,
    });
  }
  if (group.author) {
    actions.push({
      name: 'suspend-author',
      label: `Suspend ${group.author.display_name}`,
      confirm: 'They cannot log in and are logged out everywhere at once.',
      needsReason: true,
    });
  }
  return actions;
}

/** The reports an action works on: the open ones, else (a closed group) all of them. */
function reportIdsOf(group: ReportGroup): number[] {
  const open = group.reports.filter((report) => report.status === 'open');
  return (open.length > 0 ? open : group.reports).map((report) => report.id);
}

/**
 * One reported element's action buttons: flag with a reason, clear a flag, dismiss, delete a
 * comment, suspend its writer. Each is POST /admin/api/moderation-report/bulk with the
 * group's report ids; `onDone` reloads the queue.
 */
export function ReportQueueActions({ group, onDone }: { group: ReportGroup; onDone: () => void }) {
  const { dataProvider } = useAdminSetup();
  const notify = useNotify();
  const [asking, setAsking] = useState<QueueAction | null>(null);
  const [reason, setReason] = useState('');
  const [running, setRunning] = useState(false);

  const run = async (action: QueueAction) => {
    const text = reason.trim();
    if (action.name === 'flag' && !text) {
      notify(ADMIN_UI_MESSAGES.queueReasonRequired, { type: 'error' });
      return;
    }
    setRunning(true);
    try {
      const input = text ? { reason: text } : undefined;
      await dataProvider.bulk('moderation-report', action.name, reportIdsOf(group), input);
      notify(ADMIN_UI_MESSAGES.queueDone(action.label), { type: 'success' });
      setAsking(null);
      setReason('');
      onDone();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="admin-queue-actions">
      {actionsFor(group).map((action) => (
        <Button
          key={action.name}
          label={action.label}
          disabled={running}
          onClick={() =>
            action.confirm !== null || action.needsReason ? setAsking(action) : void run(action)
          }
        />
      ))}
      <Confirm
        isOpen={asking !== null}
        loading={running}
        title={`${asking?.label ?? ''}?`}
        content={
          <>
            {asking?.confirm ? <p>{asking.confirm}</p> : null}
            {asking?.needsReason ? (
              <MuiTextField
                label={ADMIN_UI_MESSAGES.bulkReasonLabel}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                fullWidth
                multiline
                minRows={2}
                margin="dense"
                autoFocus
              />
            ) : null}
          </>
        }
        confirm={asking?.label ?? ''}
        onConfirm={() => (asking ? void run(asking) : undefined)}
        onClose={() => {
          setAsking(null);
          setReason('');
        }}
      />
    </div>
  );
}
