import {
  CATEGORIES,
  documentStateResponse,
  genreCategory,
  manuscript as manuscriptSchema,
  manuscriptListResponse,
  manuscriptResponse,
  profileGenresResponse,
  type DocumentStateResponse,
  type GenreCategory,
  type Manuscript,
  type ManuscriptResponse,
} from '@margins/common';
import { z } from 'zod';
import { api } from './client.ts';

/** Query keys of manuscript data. */
export const manuscriptKeys = {
  mine: ['manuscripts', 'mine'] as const,
  catalogue: ['genres', 'catalogue'] as const,
};

/** The reading page of a manuscript. */
export function readerUrl(manuscriptId: number): string {
  return `/manuscript/document/reader/${manuscriptId}`;
}

/** GET /user/current/manuscripts (JSON): the current user's live manuscripts, newest first. */
export async function fetchMyManuscripts(): Promise<Manuscript[]> {
  return manuscriptListResponse.parse(await api.get('/user/current/manuscripts')).manuscripts;
}

/** GET /manuscript/document/state/:process_id: how the conversion of an upload is going. */
export async function fetchDocumentState(
  processId: string,
  signal?: AbortSignal,
): Promise<DocumentStateResponse> {
  const body = await api.get(`/manuscript/document/state/${encodeURIComponent(processId)}`, {
    signal,
  });
  return documentStateResponse.parse(body);
}

/** POST /manuscript/:id/edit (multipart): the saved manuscript; 400 carries the errors map. */
export async function saveManuscript(manuscriptId: number, body: FormData): Promise<Manuscript> {
  const response = await api.post(`/manuscript/${manuscriptId}/edit`, body);
  return manuscriptResponse.parse(response).manuscript;
}

/** GET /manuscript/:id/summary: the manuscript, for anyone who may read it. */
export async function fetchManuscriptSummary(manuscriptId: number): Promise<ManuscriptResponse> {
  return manuscriptResponse.parse(await api.get(`/manuscript/${manuscriptId}/summary`));
}

/** DELETE /manuscript/:id: archives it (gone from every list, kept on the server). */
export async function archiveManuscript(manuscriptId: number): Promise<void> {
  await api.delete(`/manuscript/${manuscriptId}`);
}

/** GET /profile/genres (JSON): the genre catalogue, grouped by category. */
export async function fetchGenreCatalogue(): Promise<GenreCategory[]> {
  return profileGenresResponse.parse(await api.get('/profile/genres')).categories;
}

/** A page-data list of manuscripts, keeping the ones that match the schema. */
export function readManuscripts(value: unknown): Manuscript[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = manuscriptSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A page-data genre catalogue, or null when the page has none. */
export function readCatalogue(value: unknown): GenreCategory[] | null {
  const parsed = z.array(genreCategory).safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Human names of the categories. */
export const CATEGORY_LABELS: Record<(typeof CATEGORIES)[number], string> = {
  fiction: 'Fiction',
  'non-fiction': 'Non-fiction',
  poetry: 'Poetry',
};

/** The label of a category name from the catalogue (which may hold others). */
export function categoryLabel(category: string): string {
  return (CATEGORY_LABELS as Record<string, string>)[category] ?? category;
}
