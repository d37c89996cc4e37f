import { t } from '@lingui/core/macro';
import { useId } from 'react';
import { chooseLocale } from './choose-locale';
import { LOCALE_NAMES, UI_LOCALES, isUiLocale, languageTag, useLocale } from './locale';
import './language.css';

/**
 * The language menu (decision 0326): a labelled select, each language named in itself. In the header
 * its label is visually hidden (`compact`); in Settings it shows. The pseudo-locale is listed only
 * while it is on (tests turn it on through local storage).
 */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const id = useId();
  const locale = useLocale();
  const offered = UI_LOCALES.filter((option) => option !== 'pseudo' || option === locale);
  return (
    <div className={compact ? 'language-switch language-switch-compact' : 'language-switch field'}>
      <label htmlFor={id} className={compact ? 'visually-hidden' : undefined}>
        {t`Language`}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => {
          if (isUiLocale(event.target.value)) void chooseLocale(event.target.value);
        }}
      >
        {offered.map((option) => (
          <option key={option} value={option} lang={languageTag(option)}>
            {LOCALE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
