import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useId } from 'react';
import { useLocale } from '#web/features/language';
import { setThemeChoice, useThemeChoice, type ThemeChoice } from '#web/lib/theme';

const OPTIONS: Array<{ value: ThemeChoice; label: MessageDescriptor; hint: MessageDescriptor }> = [
  { value: 'system', label: msg`System`, hint: msg`Follows your device's setting` },
  { value: 'light', label: msg`Light`, hint: msg`Dark text on a light background` },
  { value: 'dark', label: msg`Dark`, hint: msg`Light text on a dark background` },
];

/**
 * The colour theme (decision 0240), a segmented radio group (decision 0233). The choice applies at once
 * and is remembered on this device; the header's theme button changes the same choice.
 */
export function AppearancePanel() {
  useLocale();
  const id = useId();
  useLocale();
  const choice = useThemeChoice();
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Appearance`}</h2>
      <fieldset className="segmented theme-choice">
        <legend>{t`Theme`}</legend>
        <div className="segmented-options">
          {OPTIONS.map((option) => (
            <label key={option.value}>
              <input
                type="radio"
                name={`${id}-theme`}
                value={option.value}
                checked={choice === option.value}
                onChange={() => setThemeChoice(option.value)}
              />
              <span className="segmented-text">
                <span className="segmented-title">{i18n._(option.label)}</span>
                <span className="segmented-hint">{i18n._(option.hint)}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted">{t`Saved on this device.`}</p>
    </section>
  );
}
