import type { AuthResponse } from '#shared/schemas/auth';
import { api } from '#web/lib/api-client';

export type SecondStepAnswer = { code: string } | { recoveryCode: string } | { passkey: unknown };

/** POST /api/login/2fa: the second step of a sign-in (no session yet: no Authorization header). Called from the form, no hook. */
export const completeSecondStep = (challenge: string, answer: SecondStepAnswer) => api.post<AuthResponse>('/api/login/2fa', { challenge, ...answer });
