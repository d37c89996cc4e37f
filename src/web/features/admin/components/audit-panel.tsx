import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { Pagination } from '#web/components/ui/pagination';
import { Form, useForm } from '#web/components/ui/use-form';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { useLocale } from '#web/features/language';
import { formatLocaleDateTime } from '#web/lib/format';
import { useAudit } from '../api/get-audit';

/**
 * The append-only audit log, searchable: each entry as a sentence with names ("ana (admin) adjusted
 * the balance of bob@example.com by +5.00 credits: 10.00 → 15.00"), the fields that changed, and the
 * staff member's reason (docs/decisions/0234).
 */
export function AuditPanel() {
  useLocale();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // Search runs on submit; page changes load at once.
  const [submitted, setSubmitted] = useState('');
  const audit = useAudit(submitted, page);
  // The last answer stays on screen while another loads, or when it fails.
  const [shown, setShown] = useState(audit.data);
  if (audit.data && audit.data !== shown) setShown(audit.data);
  const data = audit.data ?? shown ?? null;
  const error = audit.isError ? errorMessage(audit.error, t`Failed to load the audit log`) : null;

  const searchForm = useForm({
    action: () => {
      setPage(1);
      if (search === submitted && page === 1) void audit.refetch();
      else setSubmitted(search);
    },
  });

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="admin-panel" aria-labelledby="audit-title">
      <h2 id="audit-title">{t`Audit log`}</h2>
      <Form form={searchForm} noValidate={false} role="search" className="admin-search">
        <label htmlFor="audit-search" className="visually-hidden">
          {t`Search the audit log`}
        </label>
        <input
          id="audit-search"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t`Staff member, customer email, action or reason`}
        />
        <button type="submit" className="btn btn-primary btn-small">
          {t`Search`}
        </button>
      </Form>
      <QueryState
        data={data}
        error={error}
        loading={t`Loading…`}
        isEmpty={(data) => data.entries.length === 0}
        empty={t`Nothing recorded yet.`}
      >
        {(data) => (
          <ol className="audit-entries" aria-label={t`Audit entries`}>
            {data.entries.map((e) => (
              <li key={e._id} className="audit-entry">
                <p className="audit-summary">{e.summary}</p>
                {e.changes.length > 0 && (
                  <ul className="audit-changes" aria-label={t`Changes`}>
                    {e.changes.map((c) => (
                      <li key={c.field}>
                        <span className="audit-field">{c.field}</span>: {c.before ?? '—'} → {c.after ?? '—'}
                      </li>
                    ))}
                  </ul>
                )}
                <p className="audit-meta muted">
                  <time dateTime={e.createdAt}>{formatLocaleDateTime(e.createdAt)}</time>
                  {e.reason && (
                    <>
                      {' · '}
                      {t`Reason:`} <span className="audit-reason">{e.reason}</span>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ol>
        )}
      </QueryState>
      <Pagination page={page} pages={pages} onPage={setPage} label={t`Audit pages`} />
    </section>
  );
}
