import { t } from '@lingui/core/macro';
import { useLocale } from '#web/features/language';

/** Shown while the first page's code loads (every page is its own lazily loaded chunk). */
export function AppLoading() {
  useLocale();
  return (
    <div className="app-loading" role="status">
      {t`Loading Olympus…`}
    </div>
  );
}
