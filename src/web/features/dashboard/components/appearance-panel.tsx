import { useId } from 'react';
import { setThemeChoice, useThemeChoice, type ThemeChoice } from '#web/lib/theme';

const OPTIONS: Array<{ value: ThemeChoice; label: string; hint: string }> = [
  { value: 'system', label: 'System', hint: "Follows your device's setting" },
  { value: 'light', label: 'Light', hint: 'Dark text on a light background' },
  { value: 'dark', label: 'Dark', hint: 'Light text on a dark background' },
];

/**
 * The colour theme (decision 0240), a segmented radio group (decision 0233). The choice applies at once
 * and is remembered on this device; the header's theme button changes the same choice.
 */
export function AppearancePanel() {
  const id = useId();
  const choice = useThemeChoice();
  return (
    <section className="card settings-section" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Appearance</h2>
      <fieldset className="segmented theme-choice">
        <legend>Theme</legend>
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
                <span className="segmented-title">{option.label}</span>
                <span className="segmented-hint">{option.hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <p className="muted">Saved on this device.</p>
    </section>
  );
}
