import type { ReactElement } from 'react';
import {
  BooleanInput,
  DateTimeInput,
  NullableBooleanInput,
  NumberInput,
  SelectInput,
  TextInput,
  required,
  type Validator,
} from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import type { FieldMeta } from './admin-types.ts';
import { ReferenceLookupInput } from './reference-lookup-input.tsx';

/** JSON fields are edited as text and sent back parsed. */
function formatJson(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const validJson: Validator = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? ADMIN_UI_MESSAGES.jsonInvalid : undefined;

/**
 * The react-admin input of one field in a create or edit form, chosen by its type. The
 * server validates again: its field errors appear under these inputs.
 */
export function fieldInput(field: FieldMeta): ReactElement {
  const validate = field.required && field.type !== 'boolean' ? [required()] : [];
  const common = { source: field.name, label: field.label, validate };
  switch (field.type) {
    case 'number':
      return <NumberInput key={field.name} {...common} />;
    case 'boolean':
      return <BooleanInput key={field.name} {...common} />;
    case 'date':
      return <DateTimeInput key={field.name} {...common} />;
    case 'enum':
      return (
        <SelectInput
          key={field.name}
          {...common}
          choices={(field.choices ?? []).map((choice) => ({ id: choice, name: choice }))}
        />
      );
    case 'reference':
      return (
        <ReferenceLookupInput
          key={field.name}
          field={field}
          source={field.name}
          label={field.label}
          isRequired={field.required}
        />
      );
    case 'json':
      return (
        <TextInput
          key={field.name}
          {...common}
          validate={[...validate, validJson]}
          multiline
          minRows={3}
          format={formatJson}
          parse={parseJson}
        />
      );
    case 'textarea':
      return <TextInput key={field.name} {...common} multiline minRows={3} />;
    default:
      return <TextInput key={field.name} {...common} />;
  }
}

/**
 * The input of one field in a list's filter bar (no validation; empty means no filter).
 * `choiceLabels` names an enum's values where the server has names for them.
 */
export function filterInput(
  field: FieldMeta,
  choiceLabels: ReadonlyMap<string, string> = new Map(),
): ReactElement {
  const common = { source: field.name, label: field.label };
  switch (field.type) {
    case 'boolean':
      return <NullableBooleanInput key={field.name} {...common} />;
    case 'number':
      return <NumberInput key={field.name} {...common} />;
    case 'date':
      return <DateTimeInput key={field.name} {...common} />;
    case 'enum':
      return (
        <SelectInput
          key={field.name}
          {...common}
          choices={(field.choices ?? []).map((choice) => ({
            id: choice,
            name: choiceLabels.get(choice) ?? choice,
          }))}
        />
      );
    case 'reference':
      return (
        <ReferenceLookupInput
          key={field.name}
          field={field}
          source={field.name}
          label={field.label}
        />
      );
    default:
      return <TextInput key={field.name} {...common} />;
  }
}
