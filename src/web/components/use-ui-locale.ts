import { i18n } from '@lingui/core';
import { useSyncExternalStore } from 'react';

function subscribe(listener: () => void): () => void {
  return i18n.on('change', listener);
}

const activeLocale = () => i18n.locale;

/**
 * The active language, for shared components, which do not import the language feature (decision 0094):
 * a component that calls it renders again when the language changes, as `useLocale()` does in features
 * (decision 0326).
 */
export function useUiLocale(): string {
  return useSyncExternalStore(subscribe, activeLocale, () => 'en');
}
