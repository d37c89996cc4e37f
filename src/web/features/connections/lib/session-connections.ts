import type { User } from '#shared/schemas/auth';
import { isGuestUser, type SessionUser } from '#web/features/auth';
import { sessionKeys } from '#web/features/auth/user';
import { queryClient } from '#web/lib/query-client';

/** Keeps the signed-in user in the query cache in step with a connect or disconnect (docs/decisions/0245). */
export function setSessionConnection<K extends 'discord' | 'telegram'>(provider: K, value: User[K]): void {
  queryClient.setQueryData<SessionUser>(sessionKeys.user, (user) => (!user || isGuestUser(user) ? user : { ...user, [provider]: value }));
}
