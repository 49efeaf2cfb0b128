import {
  bookmark as bookmarkSchema,
  bookmarkListResponse,
  bookmarkResponse,
  invite as inviteSchema,
  inviteListResponse,
  inviteResponse,
  manuscriptInvitesResponse,
  shareRedirectResponse,
  MESSAGES,
  surveyAnswerResponse,
  surveyResponse,
  surveySubmitResponse,
  type Bookmark,
  type Invite,
  type InviteByLinkBody,
  type InviteType,
  type ManuscriptInvitesResponse,
  type Survey,
  type SurveyAnswer,
  type SurveyAnswerBody,
  type SurveyBody,
  type SurveySubmitResponse,
  type SurveyType,
} from '@margins/common';
import { z } from 'zod';
import { api, ApiError } from './client.ts';

/**
 * Who may read (issue 5): invites, share links, access requests, reads (bookmarks) and
 * surveys. Every call of the access area, with SPEC §8's messages for its failures.
 */

/** Query keys of access data. */
export const accessKeys = {
  reads: ['access', 'reads'] as const,
  invites: ['access', 'invites'] as const,
  manuscriptInvites: (manuscriptId: number) =>
    ['access', 'manuscript-invites', manuscriptId] as const,
  survey: (manuscriptId: number, surveyType: SurveyType) =>
    ['access', 'survey', manuscriptId, surveyType] as const,
};

/** A 200 whose body is not what the call answers (SPEC §8 "Unexpected response!"). */
class UnexpectedResponseError extends Error {
  constructor() {
    super(MESSAGES.unexpectedResponse);
    this.name = 'UnexpectedResponseError';
  }
}

function parseOr<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UnexpectedResponseError();
  return parsed.data;
}

/** The survey answers page of a manuscript's survey. */
export function surveyAnswersUrl(manuscriptId: number, surveyType: SurveyType): string {
  return `/manuscript/${manuscriptId}/survey/${surveyType}/responses`;
}

/** The readable name of a survey type ("questionaire" is SPEC's spelling of the value). */
export function surveyTypeLabel(surveyType: SurveyType): string {
  return surveyType === 'questionaire' ? 'Questionnaire' : 'Feedback survey';
}

// ---------------------------------------------------------------------------------------------
// Invites and share links (the author)

/** GET /manuscript/:id/invites: the manuscript's invite type and every invite, link and request. */
export async function fetchManuscriptInvites(
  manuscriptId: number,
): Promise<ManuscriptInvitesResponse> {
  return parseOr(manuscriptInvitesResponse, await api.get(`/manuscript/${manuscriptId}/invites`));
}

/** POST /manuscript/:id/invite/link: sets the invite type and answers the link. */
export async function createShareLink(
  manuscriptId: number,
  body: { access: InviteType; code?: string; useInvite: boolean },
): Promise<Invite> {
  const payload: InviteByLinkBody = {
    access: body.access,
    useInvite: body.useInvite,
    ...(body.code ? { code: body.code } : {}),
  };
  const response = await api.post(`/manuscript/${manuscriptId}/invite/link`, payload);
  return parseOr(inviteResponse, response).invite;
}

/** SPEC §8 "Invite by link": the message for a failed link call. */
export function linkErrorMessage(error: unknown): string {
  if (error instanceof UnexpectedResponseError) return MESSAGES.unexpectedResponse;
  if (!(error instanceof ApiError)) return MESSAGES.serverCommunication;
  if (error.status === 404) return MESSAGES.linkDocumentMissing;
  if (error.status === 401 || error.status === 403) return MESSAGES.notLoggedIn;
  const fieldMessage = Object.values(error.errors).flat()[0];
  if (error.status === 400 && fieldMessage) return fieldMessage;
  return MESSAGES.serverCommunication;
}

/**
 * What the author typed into the invite box, as the call's body: an address goes as `email`,
 * anything else as `username` (a leading @ is the server's to drop).
 */
function inviteTarget(text: string): { username?: string; email?: string } {
  const value = text.trim();
  return value.includes('@') && !value.startsWith('@') ? { email: value } : { username: value };
}

/** POST /manuscript/:id/invite/user {username, email}: the invite made. */
export async function inviteByUserOrEmail(manuscriptId: number, text: string): Promise<Invite> {
  const response = await api.post(`/manuscript/${manuscriptId}/invite/user`, inviteTarget(text));
  return parseOr(inviteResponse, response).invite;
}

/**
 * SPEC §8 "Invite by user or email": 404 no account, 400/403 unable, 401 not logged in, an
 * unreadable body "Unexpected response!", anything else "Error communicating with the server!".
 * A 400 that names the address (a malformed e-mail) says so instead.
 */
export function inviteErrorMessage(error: unknown): string {
  if (error instanceof UnexpectedResponseError) return MESSAGES.unexpectedResponse;
  if (!(error instanceof ApiError)) return MESSAGES.serverCommunication;
  switch (error.status) {
    case 404:
      return MESSAGES.inviteNoAccount;
    case 400: {
      const fieldMessage = [...(error.errors.email ?? []), ...(error.errors.username ?? [])][0];
      return fieldMessage ?? MESSAGES.inviteUnable;
    }
    case 403:
      return MESSAGES.inviteUnable;
    case 401:
      return MESSAGES.notLoggedIn;
    default:
      return MESSAGES.serverCommunication;
  }
}

/** DELETE /manuscript/invite/:id (the author): the invite and the access it gave go. */
export async function deleteInvite(inviteId: number): Promise<void> {
  await api.delete(`/manuscript/invite/${inviteId}`);
}

/** POST /manuscript/:id/access/:request_id/approve|refuse (restricted manuscripts). */
export async function decideAccessRequest(
  manuscriptId: number,
  requestId: number,
  decision: 'approve' | 'refuse',
): Promise<Invite> {
  const response = await api.post(`/manuscript/${manuscriptId}/access/${requestId}/${decision}`);
  return parseOr(inviteResponse, response).invite;
}

const lookupSchema = z.object({
  users: z.array(
    z.object({ id: z.number(), handle: z.string().nullable(), display_name: z.string() }),
  ),
});
export type LookupUser = z.infer<typeof lookupSchema>['users'][number];

/** GET /profile/lookup?q=: people whose handle or name starts with q (never by e-mail). */
export async function lookupUsers(q: string, signal?: AbortSignal): Promise<LookupUser[]> {
  const body = await api.get(`/profile/lookup?q=${encodeURIComponent(q)}`, { signal });
  const parsed = lookupSchema.safeParse(body);
  return parsed.success ? parsed.data.users : [];
}

// ---------------------------------------------------------------------------------------------
// The invitee: accept or decline; the share landing's access request

/** POST /invite/:id/accept: the manuscript joins the reads; answers the new read. */
export async function acceptInvite(inviteId: number): Promise<Bookmark> {
  return parseOr(bookmarkResponse, await api.post(`/invite/${inviteId}/accept`)).bookmark;
}

/** SPEC §8 "Invite accept": 403 no permission, 404 changed or moved. */
export function acceptErrorMessage(error: unknown): string {
  if (error instanceof UnexpectedResponseError) return MESSAGES.unexpectedResponse;
  if (!(error instanceof ApiError)) return MESSAGES.serverCommunication;
  if (error.status === 403) return MESSAGES.acceptForbidden;
  if (error.status === 404) return MESSAGES.inviteMoved;
  if (error.status === 401) return MESSAGES.notLoggedIn;
  return MESSAGES.serverCommunication;
}

/** DELETE /invite/:id: the invitee declines. */
export async function declineInvite(inviteId: number): Promise<void> {
  await api.delete(`/invite/${inviteId}`);
}

/** The decline's messages (SPEC: "similar" to accept's). */
export function declineErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 403) return MESSAGES.forbidden;
  return acceptErrorMessage(error);
}

/** GET /user/current/invites (JSON): the caller's pending invites. */
export async function fetchPendingInvites(): Promise<Invite[]> {
  return parseOr(inviteListResponse, await api.get('/user/current/invites')).invites;
}

/** POST /share/:code/accept: accepts the invite or redeems the link; answers where to go. */
export async function acceptShareLink(code: string): Promise<string> {
  const response = await api.post(`/share/${encodeURIComponent(code)}/accept`);
  return parseOr(shareRedirectResponse, response).redirect;
}

/** POST /share/:code/request: asks the author of a restricted manuscript for access. */
export async function requestShareAccess(code: string): Promise<Invite> {
  const response = await api.post(`/share/${encodeURIComponent(code)}/request`);
  return parseOr(inviteResponse, response).invite;
}

// ---------------------------------------------------------------------------------------------
// Reads (bookmarks) and reading progress

/** POST /bookmark/:manuscript_id: adds it to the reads. */
export async function createBookmark(manuscriptId: number): Promise<Bookmark> {
  return parseOr(bookmarkResponse, await api.post(`/bookmark/${manuscriptId}`)).bookmark;
}

/** SPEC §8 "Bookmark create": 403, 400 and 404 each have their sentence. */
export function bookmarkErrorMessage(error: unknown): string {
  if (error instanceof UnexpectedResponseError) return MESSAGES.unexpectedResponse;
  if (!(error instanceof ApiError)) return MESSAGES.serverCommunication;
  switch (error.status) {
    case 403:
      return MESSAGES.bookmarkForbidden;
    case 400:
      return MESSAGES.bookmarkExists;
    case 404:
      return MESSAGES.bookmarkMissing;
    case 401:
      return MESSAGES.notLoggedIn;
    default:
      return MESSAGES.serverCommunication;
  }
}

/** DELETE /bookmark/:manuscript_id: removes it from the reads. */
export async function deleteBookmark(manuscriptId: number): Promise<void> {
  await api.delete(`/bookmark/${manuscriptId}`);
}

/** GET /user/current/bookmarks (JSON): the caller's reads with progress. */
export async function fetchReads(): Promise<Bookmark[]> {
  return parseOr(bookmarkListResponse, await api.get('/user/current/bookmarks')).bookmarks;
}

/** The reads of page data or a list answer that match the schema. */
export function readBookmarks(value: unknown): Bookmark[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = bookmarkSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The invites of page data or a list answer that match the schema. */
export function readInvites(value: unknown): Invite[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = inviteSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

// ---------------------------------------------------------------------------------------------
// Surveys

/** GET /manuscript/:id/survey/:type: the survey, or null when there is none (404). */
export async function fetchSurvey(
  manuscriptId: number,
  surveyType: SurveyType,
): Promise<Survey | null> {
  try {
    const body = await api.get(`/manuscript/${manuscriptId}/survey/${surveyType}`);
    return parseOr(surveyResponse, body).survey;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** POST /manuscript/survey: creates or replaces the survey; answers the saved one. */
export async function saveSurvey(body: SurveyBody): Promise<Survey> {
  return parseOr(surveyResponse, await api.post('/manuscript/survey', body)).survey;
}

/** DELETE /manuscript/:id/survey/:type: removes the survey and its answers. */
export async function deleteSurvey(manuscriptId: number, surveyType: SurveyType): Promise<void> {
  await api.delete(`/manuscript/${manuscriptId}/survey/${surveyType}`);
}

/** POST /manuscript/:id/survey/:type {user_id, answers}: final once submitted. */
export async function submitSurveyAnswers(
  manuscriptId: number,
  surveyType: SurveyType,
  body: SurveyAnswerBody,
): Promise<SurveySubmitResponse> {
  const response = await api.post(`/manuscript/${manuscriptId}/survey/${surveyType}`, body);
  return parseOr(surveySubmitResponse, response);
}

/** GET /manuscript/survey/answer/:id/approve (a state-changing GET: the CSRF header goes too). */
export async function approveSurveyAnswer(answerId: number): Promise<SurveyAnswer> {
  const response = await api.get(`/manuscript/survey/answer/${answerId}/approve`);
  return parseOr(surveyAnswerResponse, response).answer;
}
