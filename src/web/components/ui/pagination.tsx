import { t } from '@lingui/core/macro';
import { useUiLocale } from '#web/components/use-ui-locale';

interface PaginationProps {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  label: string;
  /** Disables both buttons while a page is loading. */
  busy?: boolean;
  className?: string;
}

/** Previous / "Page n of m" / Next, for paged lists. */
export function Pagination({ page, pages, onPage, label, busy = false, className = 'pagination' }: PaginationProps) {
  useUiLocale();
  return (
    <nav className={className} aria-label={label}>
      <button type="button" className="btn btn-ghost btn-small" disabled={page <= 1 || busy} onClick={() => onPage(page - 1)}>
        {t`Previous`}
      </button>
      <span className="muted">{t`Page ${page} of ${pages}`}</span>
      <button type="button" className="btn btn-ghost btn-small" disabled={page >= pages || busy} onClick={() => onPage(page + 1)}>
        {t`Next`}
      </button>
    </nav>
  );
}
