import { onSessionUser, useSessionStore } from '#web/features/auth';
import { saveAccountLocale } from './api/save-account-locale';
import { activateLocale, readStoredLocale, storeLocale, type UiLocale } from './locale';

/**
 * The visitor picked a language (decision 0326): shown at once, remembered on this device, and stored
 * on the account when signed in, so another device starts in it too. The pseudo-locale stays local.
 */
export async function chooseLocale(locale: UiLocale): Promise<void> {
  storeLocale(locale);
  const { isAuthenticated, isGuest } = useSessionStore.getState();
  const saved =
    isAuthenticated && !isGuest && locale !== 'pseudo'
      ? saveAccountLocale(locale).catch(() => {
          // Kept on this device all the same; the account keeps its earlier language.
        })
      : undefined;
  await activateLocale(locale);
  await saved;
}

let registered = false;

/**
 * Once a signed-in user is known (the start-up check or a sign-in), their account's language applies,
 * unless this device holds a choice of its own, which wins. Registered once at app start.
 */
export function followAccountLocale(): void {
  if (registered) return;
  registered = true;
  onSessionUser((user) => {
    if (user.locale && readStoredLocale() === null) void activateLocale(user.locale);
  });
}
