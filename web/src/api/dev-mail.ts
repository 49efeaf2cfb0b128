import { devMailResponse, type DevMailResponse } from '@margins/common';
import { api } from './client.ts';

/** GET /dev/mail (JSON): the development mailbox's messages. */
export async function fetchDevMail(): Promise<DevMailResponse> {
  return devMailResponse.parse(await api.get('/dev/mail'));
}
