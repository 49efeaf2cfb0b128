import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { schema } from '../../../db/index.ts';
import type { SectionDeclaration } from '../types.ts';
import { qualified, referenceId, requiredLine } from './fields.ts';

const genres = schema.genres;

/** The genre catalogue (interests, manuscript genres, Discover's facets). */
export const genreSection: SectionDeclaration = {
  name: 'genre',
  label: 'Genres',
  table: genres,
  id: genres.id,
  labelField: 'name',
  defaultSort: 'name',
  defaultOrder: 'asc',
  fields: [
    {
      name: 'name',
      label: 'Name',
      type: 'text',
      source: genres.name,
      list: true,
      sortable: true,
      searchable: true,
      create: true,
      edit: true,
      inline: true,
      required: true,
    },
    {
      name: 'category_id',
      label: 'Category number',
      type: 'number',
      source: genres.categoryId,
      filterable: true,
      create: true,
      edit: true,
      required: true,
    },
    {
      name: 'category',
      label: 'Category',
      type: 'text',
      source: sql<string>`(select ${qualified(schema.genreCategories.name)} from ${schema.genreCategories} where ${qualified(schema.genreCategories.id)} = ${qualified(genres.categoryId)})`,
      list: true,
      sortable: true,
      searchable: true,
    },
    {
      name: 'manuscripts',
      label: 'Manuscripts',
      type: 'number',
      source: sql<number>`(select count(*)::int from ${schema.manuscriptGenres} where ${qualified(schema.manuscriptGenres.genreId)} = ${qualified(genres.id)})`,
      list: true,
      sortable: true,
    },
    {
      name: 'interested',
      label: 'Interested users',
      type: 'number',
      source: sql<number>`(select count(*)::int from ${schema.userGenres} where ${qualified(schema.userGenres.genreId)} = ${qualified(genres.id)})`,
      list: true,
      sortable: true,
    },
  ],
  createSchema: z.object({ name: requiredLine('a name', 80), category_id: referenceId }),
  updateSchema: z.object({ name: requiredLine('a name', 80), category_id: referenceId }).partial(),
  checkWrite: async ({ tx }, { input }) => {
    if (input.category_id === undefined) return undefined;
    const [category] = await tx
      .select({ id: schema.genreCategories.id })
      .from(schema.genreCategories)
      .where(sql`${qualified(schema.genreCategories.id)} = ${input.category_id}`);
    return category ? undefined : { category_id: ['Choose an existing category.'] };
  },
};
