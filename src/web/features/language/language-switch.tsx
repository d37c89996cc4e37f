import { t } from '@lingui/core/macro';
import { useId } from 'react';
import { chooseLocale } from './choose-locale';
import { LOCALE_NAMES, UI_LOCALES, isUiLocale, languageTag, useLocale } from './locale';
import './language.css';

/**
 * The language menu (decision 0326): a labelled select, each language named in itself. In the header
 * (`compact`) its label is visually hidden and, on a wide screen, the select lies unseen over a globe
 * button of the theme button's size, so the bar keeps its room; in the folded phone menu it is a row.
 * In Settings it shows as a field. The pseudo-locale is listed only while it is on (tests turn it on
 * through local storage).
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
      {compact && <GlobeIcon />}
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

function GlobeIcon() {
  return (
    <span className="language-switch-icon" aria-hidden="true">
      <svg
        focusable="false"
        width="20"
        height="20"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        <circle cx="12" cy="12" r="9.5" />
        <path d="M2.5 12h19M12 2.5c2.5 2.6 3.8 5.8 3.8 9.5s-1.3 6.9-3.8 9.5c-2.5-2.6-3.8-5.8-3.8-9.5s1.3-6.9 3.8-9.5Z" />
      </svg>
    </span>
  );
}
