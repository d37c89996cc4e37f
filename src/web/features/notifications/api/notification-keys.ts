/** Query keys of the notifications feature: everything under `notificationKeys.all` is refetched together. */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (scope: 'panel' | 'page') => ['notifications', 'list', scope] as const,
  preferences: ['users', 'notification-preferences'] as const,
};
