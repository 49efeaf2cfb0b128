import { manuscriptReportResponse, type ManuscriptReportResponse } from '@margins/common';
import { api } from './client.ts';

/** Query key of a manuscript's conversion report; `updated` changes with every new draft. */
export const conversionReportKey = (manuscriptId: number, updated: string) =>
  ['manuscripts', manuscriptId, 'report', updated] as const;

/** GET /manuscript/:id/report: what the conversion of the current draft kept, and what not. */
export async function fetchConversionReport(
  manuscriptId: number,
): Promise<ManuscriptReportResponse> {
  const body = await api.get<unknown>(`/manuscript/${manuscriptId}/report`);
  return manuscriptReportResponse.parse(body);
}
