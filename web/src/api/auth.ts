import {
  authResponse,
  loginLinkResponse,
  signupResponse,
  type AuthResponse,
  type CompleteSignupBody,
  type LoginLinkBody,
  type LoginLinkResponse,
  type SignupBody,
  type SignupResponse,
} from '@margins/common';
import { api } from './client.ts';

/** POST /auth/login {email, password, next?}: the logged-in user and where to go. */
export async function logIn(body: {
  email: string;
  password: string;
  next?: string;
}): Promise<AuthResponse> {
  return authResponse.parse(await api.post('/auth/login', body));
}

/** POST /auth/signup: the same answer for a new address and a known one. */
export async function signUp(body: SignupBody): Promise<SignupResponse> {
  return signupResponse.parse(await api.post('/auth/signup', body));
}

/** POST /auth/complete/signup: handle and display name; the logged-in user and where to go. */
export async function completeSignup(body: CompleteSignupBody): Promise<AuthResponse> {
  return authResponse.parse(await api.post('/auth/complete/signup', body));
}

/** POST /auth/login/link: mails a one-time log-in link (the same sentence for any address). */
export async function sendLoginLink(body: LoginLinkBody): Promise<LoginLinkResponse> {
  return loginLinkResponse.parse(await api.post('/auth/login/link', body));
}

/** POST /auth/login/link/confirm {token}: logs in with the link's token. */
export async function confirmLoginLink(token: string): Promise<AuthResponse> {
  return authResponse.parse(await api.post('/auth/login/link/confirm', { token }));
}
