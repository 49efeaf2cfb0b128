import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';

const waitingList = schema.waitingList;

/**
 * The waiting list (POST /products/): read, search, export, and remove on request. Nobody is
 * added here: joining is the person's own act, confirmed by mail. Admin only (no moderator
 * view): it is nothing but e-mail addresses.
 */
export const waitingListSection: SectionDeclaration = {
  name: 'waiting-list',
  label: 'Waiting list',
  table: waitingList,
  id: waitingList.id,
  labelField: 'email',
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  fields: [
    {
      name: 'email',
      label: 'E-mail',
      type: 'text',
      source: waitingList.email,
      list: true,
      sortable: true,
      searchable: true,
      filterable: true,
    },
    {
      name: 'created_at',
      label: 'Joined',
      type: 'date',
      source: waitingList.createdAt,
      list: true,
      sortable: true,
      filterable: true,
    },
  ],
};
