import { useRef } from 'react';
import { CreateButton, Datagrid, FilterButton, List, SearchInput, TopToolbar } from 'react-admin';
import { fieldsFor, useAdminSetup, useSection } from './admin-meta.ts';
import { BulkActionButton } from './bulk-action-button.tsx';
import { ExportButtons } from './export-buttons.tsx';
import { fieldDisplay } from './field-display.tsx';
import { filterInput } from './field-input.tsx';
import { useRowCheckboxLabels } from './row-checkbox-labels.ts';

/**
 * The list of any section, built from its meta: search (`q`) when it has searchable
 * fields, one filter per filterable field, sortable columns, paging, its bulk actions on
 * the selected rows, its exports, and a row click that opens the details.
 */
export function SectionList() {
  const section = useSection();
  const { sections } = useAdminSetup();
  const table = useRef<HTMLDivElement>(null);
  useRowCheckboxLabels(table);
  const filters = [
    ...(fieldsFor(section, 'search').length > 0
      ? [<SearchInput key="q" source="q" alwaysOn />]
      : []),
    ...fieldsFor(section, 'filter').map(filterInput),
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
