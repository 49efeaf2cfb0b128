import {
  CSRF_HEADER,
  READING_BATCH_MAX_BLOCKS,
  heatResponse,
  insightsResponse,
  type HeatResponse,
  type InsightsResponse,
  type StopReadingBody,
} from '@margins/common';
import type { ReadingPosition } from '../lib/reading-position.ts';
import type { BlockTime } from '../lib/reading-tracker.ts';
import { api, readCsrfToken } from './client.ts';

/** Query keys of reading insights. */
export const insightsKeys = {
  insights: (manuscriptId: number) => ['insights', manuscriptId] as const,
  heat: (manuscriptId: number) => ['insights', manuscriptId, 'heat'] as const,
};

/**
 * POST /bookmark/:id/reading: a batch of reading time, and the furthest position. `keepalive` lets it leave while the
 * page is being hidden or closed (a fetch, not sendBeacon, so that it carries the CSRF header).
 * Reading time is a nicety: a failure is dropped, never shown.
 */
export function sendReadingBatch(
  manuscriptId: number,
  blocks: BlockTime[],
  position: ReadingPosition | undefined,
  options: { keepalive?: boolean } = {},
): void {
  // The position rides with the first batch (alone when no block has time to report).
  const batches: Array<{ blocks: BlockTime[]; position?: ReadingPosition }> = [];
  for (let start = 0; start < blocks.length; start += READING_BATCH_MAX_BLOCKS) {
    batches.push({ blocks: blocks.slice(start, start + READING_BATCH_MAX_BLOCKS) });
  }
  if (position) {
    if (batches[0]) batches[0].position = position;
    else batches.push({ blocks: [], position });
  }
  for (const batch of batches) {
    fetch(`/bookmark/${manuscriptId}/reading`, {
      method: 'POST',
      credentials: 'include',
      keepalive: options.keepalive ?? false,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        [CSRF_HEADER]: readCsrfToken(),
      },
      body: JSON.stringify(batch),
    }).catch(() => undefined);
  }
}

/** POST /manuscript/:id/complete: the reader reached the end. */
export async function completeReading(manuscriptId: number): Promise<void> {
  await api.post(`/manuscript/${manuscriptId}/complete`);
}

/** POST /manuscript/:id/reading/stop: "I'm stopping here". */
export async function stopReading(manuscriptId: number, body: StopReadingBody): Promise<void> {
  await api.post(`/manuscript/${manuscriptId}/reading/stop`, body);
}

/** GET /manuscript/:id/insights: the author's Insights. */
export async function fetchInsights(manuscriptId: number): Promise<InsightsResponse> {
  return insightsResponse.parse(await api.get(`/manuscript/${manuscriptId}/insights`));
}

/** GET /manuscript/:id/insights/heat: highlights and comments per block. */
export async function fetchHeat(manuscriptId: number): Promise<HeatResponse> {
  return heatResponse.parse(await api.get(`/manuscript/${manuscriptId}/insights/heat`));
}

/** PUT /manuscript/:id/insights/settings. */
export async function saveReminderDays(manuscriptId: number, days: number | null): Promise<void> {
  await api.put(`/manuscript/${manuscriptId}/insights/settings`, { reminder_days: days });
}

/** POST /manuscript/:id/insights/readers/:user_id/nudge. */
export async function nudgeReader(manuscriptId: number, userId: number): Promise<void> {
  await api.post(`/manuscript/${manuscriptId}/insights/readers/${userId}/nudge`);
}
