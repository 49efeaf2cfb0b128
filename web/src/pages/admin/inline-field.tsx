import { useState, type KeyboardEvent, type SyntheticEvent } from 'react';
import { MenuItem, Select, Switch, TextField as MuiTextField } from '@mui/material';
import { useNotify, useRecordContext, useRefresh, useResourceContext } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import type { FieldMeta } from './admin-types.ts';
import { useAdminSetup } from './admin-meta.ts';

interface InlineFieldProps {
  field: FieldMeta;
  source: string;
  label: string;
  /** Read by the list's header (react-admin reads its columns' props). */
  sortable?: boolean;
}

/** Clicks and keys inside the cell edit it; they must not open the row's details. */
function keepInCell(event: SyntheticEvent) {
  event.stopPropagation();
}

/**
 * A list cell that edits one field in place through the one-field ajax update
 * (`POST /admin/api/S/:id/field`): a switch for booleans, a menu for choices, a text box
 * (saved on Enter or when it loses focus) for the rest. The server's refusal is shown as
 * a notification and the cell goes back to the stored value.
 */
export function InlineField({ field }: InlineFieldProps) {
  const record = useRecordContext();
  const resource = useResourceContext();
  const { dataProvider } = useAdminSetup();
  const notify = useNotify();
  const refresh = useRefresh();
  const stored = record?.[field.name];
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  if (!record || !resource) return null;

  const save = async (value: unknown) => {
    setSaving(true);
    try {
      await dataProvider.updateField(resource, record.id, field.name, value);
      notify(ADMIN_UI_MESSAGES.fieldSaved(field.label), { type: 'success' });
      refresh();
    } catch (error) {
      notify(error instanceof Error ? error.message : String(error), { type: 'error' });
    } finally {
      setSaving(false);
      setDraft(null);
    }
  };
  const label = `${field.label} of #${String(record.id)}`;

  if (field.type === 'boolean') {
    return (
      <Switch
        size="small"
        checked={stored === true}
        disabled={saving}
        onClick={keepInCell}
        onChange={(event) => void save(event.target.checked)}
        slotProps={{ input: { 'aria-label': label } }}
      />
    );
  }
  if (field.type === 'enum' && field.choices) {
    return (
      <Select
        size="small"
        variant="standard"
        value={typeof stored === 'string' ? stored : ''}
        disabled={saving}
        onClick={keepInCell}
        onChange={(event) => void save(event.target.value)}
        inputProps={{ 'aria-label': label }}
      >
        {field.choices.map((choice) => (
          <MenuItem key={choice} value={choice}>
            {choice}
          </MenuItem>
        ))}
      </Select>
    );
  }
  const shown = draft ?? (stored === null || stored === undefined ? '' : String(stored));
  const commit = () => {
    if (draft === null) return;
    if (draft === String(stored ?? '')) return setDraft(null);
    void save(field.type === 'number' ? (draft === '' ? null : Number(draft)) : draft);
  };
  const handleKey = (event: KeyboardEvent) => {
    event.stopPropagation();
    if (event.key === 'Enter') commit();
    if (event.key === 'Escape') setDraft(null);
  };
  return (
    <MuiTextField
      size="small"
      variant="standard"
      type={field.type === 'number' ? 'number' : 'text'}
      value={shown}
      disabled={saving}
      onClick={keepInCell}
      onKeyDown={handleKey}
      onChange={(event) => setDraft(event.target.value)}
      onBlur={commit}
      slotProps={{ htmlInput: { 'aria-label': label } }}
    />
  );
}
