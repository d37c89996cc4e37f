import type { AuthResponse, GuestResponse, User } from '#shared/schemas/auth';
import type { TwoFactorChallengeResponse } from '#shared/schemas/two-factor';
import { api, refreshAccessToken } from '#web/lib/api-client';
import type { SessionUser } from '../stores/session-store';

export interface LoginBody {
  username: string;
  password: string;
  guestId: string | null;
  turnstileToken: string;
  rememberMe: boolean;
}

export interface RegisterBody {
  username: string;
  email: string;
  password: string;
  guestId: string | null;
  turnstileToken: string;
  referralCode?: string;
}

/**
 * The session's calls to the server, the only place the auth feature talks to the API client for them.
 * The session store runs the sign-in sequences with these; components reach them through the mutation
 * hooks of ./session-mutations.ts (docs/decisions/0225).
 */
export const sessionApi = {
  /** POST /api/login: a session, or a two-factor challenge. */
  login: (body: LoginBody) => api.post<AuthResponse | TwoFactorChallengeResponse>('/api/login', body),
  /** POST /api/register. */
  register: (body: RegisterBody) => api.post<AuthResponse>('/api/register', body),
  /** POST /api/guest. */
  guest: () => api.post<GuestResponse>('/api/guest'),
  /** POST /api/logout. */
  logout: () => api.post<{ message?: string }>('/api/logout'),
  /** POST /api/refresh-token, through the client (it shares one renewal between callers). */
  refresh: () => refreshAccessToken(),
  /** GET /api/auth/me. */
  me: () => api.get<{ user: SessionUser }>('/api/auth/me'),
  /** GET /api/users/{id}/credits. */
  credits: (userId: string) => api.get<{ credits: number }>(`/api/users/${encodeURIComponent(userId)}/credits`),
  /** PUT /api/onboarding. */
  onboarding: (completed: boolean) => api.put<{ user: User }>('/api/onboarding', { completed }),
};
