import { t } from '@lingui/core/macro';
import { useLocale } from '#web/features/language';
import { resolveTheme, setThemeChoice, useResolvedTheme } from '#web/lib/theme';

/**
 * The header's theme button (decision 0240): switches to the other palette than the one on screen and
 * remembers that choice. Settings offers the full choice, including "System". An icon in the header bar on
 * a wide screen (its text, visually hidden, is its name); a labelled row of the folded menu on a phone.
 */
export function ThemeToggle() {
  const theme = useResolvedTheme();
  useLocale();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = next === 'dark' ? t`Switch to dark theme` : t`Switch to light theme`;
  return (
    <button
      type="button"
      className="theme-toggle"
      title={label}
      data-theme-shown={theme}
      onClick={() => setThemeChoice(resolveTheme(next))}
    >
      {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
      <span className="theme-toggle-label">{label}</span>
    </button>
  );
}

function SunIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
    >
      <circle cx="12" cy="12" r="4.5" />
      <path d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8" />
    </svg>
  );
}

function MoonIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinejoin="round"
    >
      <path d="M20.5 14.5A8.5 8.5 0 0 1 9.5 3.5a8.5 8.5 0 1 0 11 11Z" />
    </svg>
  );
}
