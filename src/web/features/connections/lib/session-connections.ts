import type { User } from '#shared/schemas/auth';
import { isGuestUser, useSessionStore } from '#web/features/auth';

/** Keeps the signed-in user in the session store in step with a connect or disconnect. */
export function setSessionConnection<K extends 'discord' | 'telegram'>(provider: K, value: User[K]): void {
  useSessionStore.setState((state) => {
    if (!state.user || isGuestUser(state.user)) return {};
    return { user: { ...state.user, [provider]: value } };
  });
}
