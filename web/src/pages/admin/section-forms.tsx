import {
  Create,
  DeleteButton,
  Edit,
  EditButton,
  SaveButton,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  Toolbar,
  TopToolbar,
} from 'react-admin';
import { fieldsFor, useAdminSetup, useSection } from './admin-meta.ts';
import { fieldDisplay } from './field-display.tsx';
import { fieldInput } from './field-input.tsx';

/** Delete asks first, then waits for the server (no optimistic removal to undo). */
function SectionDeleteButton() {
  return <DeleteButton mutationMode="pessimistic" redirect="list" />;
}

/** The details of any item: every field of the section, edit and delete as allowed. */
export function SectionShow() {
  const section = useSection();
  const { sections } = useAdminSetup();
  return (
    <Show
      actions={
        <TopToolbar>
          {section.canUpdate ? <EditButton /> : null}
          {section.canDelete ? <SectionDeleteButton /> : null}
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="id" label="ID" />
        {section.fields
          .filter((field) => field.name !== 'id')
          .map((field) => fieldDisplay(field, sections, 'show'))}
      </SimpleShowLayout>
    </Show>
  );
}

function EditToolbar() {
  const section = useSection();
  return (
    <Toolbar className="admin-form-toolbar">
      <SaveButton />
      {section.canDelete ? <SectionDeleteButton /> : null}
    </Toolbar>
  );
}

/**
 * The edit form of any item: the section's editable fields. Pessimistic, so the server's
 * field errors (400 `errors`) land under their inputs instead of being undone later.
 */
export function SectionEdit() {
  const section = useSection();
  return (
    <Edit mutationMode="pessimistic" redirect="show">
      <SimpleForm toolbar={<EditToolbar />}>
        {fieldsFor(section, 'edit').map(fieldInput)}
      </SimpleForm>
    </Edit>
  );
}

/** The create form of any section: its creatable fields; field errors as in the edit form. */
export function SectionCreate() {
  const section = useSection();
  return (
    <Create redirect="show">
      <SimpleForm>{fieldsFor(section, 'create').map(fieldInput)}</SimpleForm>
    </Create>
  );
}
