/**
 * The colour theme (decision 0240): 'system' follows the device (prefers-color-scheme), 'light' and
 * 'dark' are the visitor's choice, remembered in local storage under `theme`. The choice is the
 * `data-theme` attribute of <html>; the stylesheet picks the palette from it. The inline script in
 * index.html sets the attribute from storage before the first paint; this module changes it later.
 * Kept tiny and free of imports: the header (on the home page) uses it.
 */
import { useSyncExternalStore } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

/** The local-storage key; index.html's inline script reads the same key. */
export const THEME_STORAGE_KEY = 'theme';

export const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function parseThemeChoice(value: unknown): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** The stored choice; 'system' when nothing (or nothing valid) is stored or storage is unavailable. */
export function readThemeChoice(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return parseThemeChoice(document.documentElement.dataset.theme);
  }
}

/** Applies a choice at once and remembers it ('system' forgets any earlier choice). */
export function setThemeChoice(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage unavailable: the choice lasts for this page only.
  }
  document.documentElement.dataset.theme = choice;
  notify();
}

const darkQuery = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/** The palette on screen: the choice, or for 'system' what the device prefers (dark when unknown). */
export function resolveTheme(choice: ThemeChoice, prefersDark = darkQuery()?.matches ?? true): Theme {
  return choice === 'system' ? (prefersDark ? 'dark' : 'light') : choice;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = darkQuery();
  // Another tab changed the choice: follow it here too.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    document.documentElement.dataset.theme = readThemeChoice();
    listener();
  };
  window.addEventListener('storage', onStorage);
  media?.addEventListener?.('change', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
    media?.removeEventListener?.('change', listener);
  };
}

/** The visitor's choice, re-rendering when it changes (here, in another tab). */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, readThemeChoice, () => 'system');
}

/** The palette on screen, re-rendering when the choice or the device's preference changes. */
export function useResolvedTheme(): Theme {
  return useSyncExternalStore(
    subscribe,
    () => resolveTheme(readThemeChoice()),
    () => 'dark',
  );
}
