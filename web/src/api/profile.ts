import {
  generateInviteResponse,
  profileFormResponse,
  type GenerateInviteResponse,
  type ProfileFormResponse,
} from '@margins/common';
import { api } from './client.ts';

/** POST /profile/?format=json (multipart): the saved profile; 400 carries the errors map. */
export async function saveProfile(body: FormData): Promise<ProfileFormResponse> {
  return profileFormResponse.parse(await api.post('/profile/?format=json', body));
}

/** GET /profile/generate/invite: a new platform invite code and how many are left. */
export async function generateInviteCode(): Promise<GenerateInviteResponse> {
  return generateInviteResponse.parse(await api.get('/profile/generate/invite'));
}
