import { useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CreateButton, Datagrid, FilterButton, List, SearchInput, TopToolbar } from 'react-admin';
import { fieldsFor, useAdminSetup, useSection } from './admin-meta.ts';
import { BulkActionButton } from './bulk-action-button.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { fieldDisplay } from './field-display.tsx';
import { filterInput } from './field-input.tsx';
import { useRowCheckboxLabels } from './row-checkbox-labels.ts';

/** The one section with a models lookup (admin contract). */
const MODELS_SECTION = 'moderation-report';

/**
 * The list of any section, built from its meta: search (`q`) when it has searchable
 * fields, one filter per filterable field, sortable columns, paging, its bulk actions on
 * the selected rows, its exports, and a row click that opens the details.
 */
export function SectionList() {
  const section = useSection();
  const { sections, dataProvider } = useAdminSetup();
  // The moderation queue names what can be reported (the models lookup): its kind filter.
  const models = useQuery({
    queryKey: ['admin-models'],
    queryFn: () => dataProvider.models(),
    enabled: section.name === MODELS_SECTION,
    staleTime: Infinity,
  });
  const modelLabels = new Map(models.data?.map((model) => [model.name, model.label]));
  const table = useRef<HTMLDivElement>(null);
  useRowCheckboxLabels(table);
  const filters = [
    ...(fieldsFor(section, 'search').length > 0
      ? [<SearchInput key="q" source="q" alwaysOn />]
      : []),
    ...fieldsFor(section, 'filter').map((field) => filterInput(field, modelLabels)),
  ];
  const bulkActions =
    section.bulkActions.length > 0 ? (
      <>
        {section.bulkActions.map((action) => (
          <BulkActionButton key={action.name} action={action} />
        ))}
      </>
    ) : (
      false
    );
  return (
    <div ref={table}>
      <List
        title={section.label}
        sort={{
          field: section.defaultSort,
          order: section.defaultOrder === 'asc' ? 'ASC' : 'DESC',
        }}
        filters={filters.length > 0 ? filters : undefined}
        exporter={false}
        perPage={25}
        actions={
          <TopToolbar>
            {filters.length > 1 ? <FilterButton /> : null}
            {section.canCreate ? <CreateButton /> : null}
            <ExportButtons types={section.exports} />
          </TopToolbar>
        }
      >
        <Datagrid rowClick="show" bulkActionButtons={bulkActions}>
          {fieldsFor(section, 'list').map((field) =>
            fieldDisplay(field, sections, 'list', section),
          )}
        </Datagrid>
      </List>
    </div>
  );
}
