import { z } from 'zod';
import { MAINTENANCE_NOTICE_MAX_LENGTH } from '@margins/common';
import { schema } from '../../../db/index.ts';
import { forgetFeatures } from '../../features/service.ts';
import type { SectionDeclaration } from '../types.ts';
import { optionalText, yesNo } from './fields.ts';

const features = schema.features;

/**
 * The runtime switches (modules/features): productsEnabled, invitesEnabled and the maintenance
 * notice. Seeded from the environment on first start, so there is nothing to create or delete;
 * an admin turns them on and off here, and every process sees it within FEATURES_CACHE_MS.
 */
export const featureSection: SectionDeclaration = {
  name: 'feature',
  label: 'Features',
  table: features,
  id: features.id,
  labelField: 'name',
  defaultSort: 'name',
  defaultOrder: 'asc',
  fields: [
    {
      name: 'name',
      label: 'Feature',
      type: 'text',
      source: features.name,
      list: true,
      sortable: true,
      searchable: true,
    },
    {
      name: 'enabled',
      label: 'On',
      type: 'boolean',
      source: features.enabled,
      list: true,
      sortable: true,
      filterable: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'notice',
      label: 'Notice shown on every page (maintenance)',
      type: 'textarea',
      source: features.notice,
      list: true,
      edit: true,
      inline: true,
    },
    {
      name: 'updated_at',
      label: 'Changed',
      type: 'date',
      source: features.updatedAt,
      list: true,
      sortable: true,
    },
  ],
  updateSchema: z
    .object({ enabled: yesNo, notice: optionalText(MAINTENANCE_NOTICE_MAX_LENGTH, true) })
    .partial(),
  deletable: false,
  // This process reads the table again at once; the others within the cache time.
  afterUpdate: async ({ ctx }) => forgetFeatures(ctx),
};
