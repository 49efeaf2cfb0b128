import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useWatch } from 'react-hook-form';
import { AutocompleteInput, useResourceContext } from 'react-admin';
import { ADMIN_UI_MESSAGES } from '@margins/common';
import type { FieldMeta, LookupOption } from './admin-types.ts';
import { itemLabel, useAdminSetup } from './admin-meta.ts';

interface ReferenceLookupInputProps {
  field: FieldMeta;
  source: string;
  label: string;
  alwaysOn?: boolean;
  isRequired?: boolean;
}

const matchEverything = () => true;

/**
 * A reference field's input: an autocomplete whose options come from the section's ajax
 * lookup (`GET /admin/api/S/lookup?field=&q=`, searched on the server as one types), plus
 * the chosen item, named by the referenced section's label field when the caller may open it.
 */
export function ReferenceLookupInput({
  field,
  source,
  label,
  isRequired,
}: ReferenceLookupInputProps) {
  const resource = useResourceContext() ?? '';
  const { dataProvider, sections } = useAdminSetup();
  const [q, setQ] = useState('');
  const value: unknown = useWatch({ name: source });
  const currentId = typeof value === 'number' || typeof value === 'string' ? Number(value) : null;

  const options = useQuery({
    queryKey: ['admin-lookup', resource, field.name, q],
    queryFn: () => dataProvider.lookup(resource, field.name, q),
    staleTime: 30_000,
  });
  const target = field.reference ? sections.get(field.reference) : undefined;
  const current = useQuery({
    queryKey: ['admin-lookup-current', target?.name, currentId],
    enabled: Boolean(target) && currentId !== null && Number.isFinite(currentId),
    queryFn: async (): Promise<LookupOption> => {
      const { data } = await dataProvider.getOne(target?.name ?? '', { id: currentId ?? 0 });
      return { id: Number(data.id), label: itemLabel(target, data) };
    },
    staleTime: 60_000,
  });

  const choices = useMemo(() => {
    const list = [...(options.data ?? [])];
    const chosen = current.data;
    if (chosen && !list.some((option) => option.id === chosen.id)) list.unshift(chosen);
    if (currentId !== null && !list.some((option) => option.id === currentId)) {
      list.unshift({ id: currentId, label: `#${currentId}` });
    }
    return list;
  }, [options.data, current.data, currentId]);

  return (
    <AutocompleteInput
      source={source}
      label={label}
      choices={choices}
      optionText="label"
      optionValue="id"
      setFilter={setQ}
      matchSuggestion={matchEverything}
      isPending={options.isPending}
      isRequired={isRequired}
      TextFieldProps={{ placeholder: ADMIN_UI_MESSAGES.lookupPlaceholder }}
      helperText={false}
    />
  );
}
