import { t } from '@lingui/core/macro';
import { useRef, type ReactNode } from 'react';
import { useLocale } from '#web/features/language';
import { useLocation } from 'react-router';
import { useScrollToSection } from '#web/components/use-scroll-to-section';
import { DataExportPanel } from './data-export-panel';
import { RetentionTable } from './retention-table';
import '../privacy.css';

/**
 * Settings → Privacy (/dashboard/settings#privacy): a copy of my data and how long things are kept.
 * `children` go at the end of the section (account closure belongs there).
 */
export function PrivacySection({ children }: { children?: ReactNode }) {
  useLocale();
  const ref = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  // The page loads lazily, after the browser looked for the anchor: scroll to it once it exists.
  useScrollToSection(ref, hash === '#privacy');

  return (
    <section ref={ref} className="card settings-section privacy-section stack" aria-labelledby="privacy">
      <h2 id="privacy" tabIndex={-1}>
        {t`Privacy`}
      </h2>
      <DataExportPanel />
      <RetentionTable />
      {children}
    </section>
  );
}
