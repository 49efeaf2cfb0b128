import type { ReactElement } from 'react';
import {
  BooleanField,
  DateField,
  FunctionField,
  NumberField,
  ReferenceField,
  TextField,
} from 'react-admin';
import type { FieldMeta, SectionMeta } from './admin-types.ts';
import { InlineField } from './inline-field.tsx';

/** JSON values as one line of text (a list cell) or indented (a details page). */
function jsonText(value: unknown, pretty: boolean): string {
  if (value === undefined || value === null) return '';
  return JSON.stringify(value, null, pretty ? 2 : undefined);
}

/**
 * The react-admin field that shows one field of a section, chosen by its type. A reference
 * links to the referenced item when the caller may open that section, else shows its id.
 * In a list, an `inline` field of a section the caller may update is edited in place.
 */
export function fieldDisplay(
  field: FieldMeta,
  sections: ReadonlyMap<string, SectionMeta>,
  view: 'list' | 'show',
  section?: SectionMeta,
): ReactElement {
  const common = { source: field.name, label: field.label };
  const sortable = view === 'list' ? field.sortable : false;
  if (view === 'list' && field.inline && section?.canUpdate) {
    return <InlineField key={field.name} {...common} field={field} sortable={sortable} />;
  }
  switch (field.type) {
    case 'number':
      return <NumberField key={field.name} {...common} sortable={sortable} />;
    case 'boolean':
      return <BooleanField key={field.name} {...common} sortable={sortable} />;
    case 'date':
      return <DateField key={field.name} {...common} sortable={sortable} showTime />;
    case 'json':
      return (
        <FunctionField
          key={field.name}
          {...common}
          sortable={sortable}
          render={(record: Record<string, unknown>) =>
            view === 'show' ? (
              <pre className="admin-json">{jsonText(record[field.name], true)}</pre>
            ) : (
              jsonText(record[field.name], false)
            )
          }
        />
      );
    case 'reference': {
      const target = field.reference ? sections.get(field.reference) : undefined;
      if (!target) return <NumberField key={field.name} {...common} sortable={sortable} />;
      return (
        <ReferenceField
          key={field.name}
          {...common}
          reference={target.name}
          link="show"
          sortable={sortable}
        />
      );
    }
    case 'textarea':
      return (
        <TextField
          key={field.name}
          {...common}
          sortable={sortable}
          className={view === 'list' ? 'admin-cell-clamp' : 'admin-pre-line'}
        />
      );
    default:
      return <TextField key={field.name} {...common} sortable={sortable} />;
  }
}
