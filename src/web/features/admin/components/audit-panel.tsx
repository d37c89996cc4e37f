import { useState } from 'react';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { errorMessage } from '#web/lib/api-client';
import { useAudit } from '../api/get-audit';

function summary(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return JSON.stringify(value);
}

/** The append-only audit log: who did what, when, before and after; searchable. */
export function AuditPanel() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  // Search runs on submit; page changes load at once.
  const [submitted, setSubmitted] = useState('');
  const audit = useAudit(submitted, page);
  // The last answer stays on screen while another loads, or when it fails.
  const [shown, setShown] = useState(audit.data);
  if (audit.data && audit.data !== shown) setShown(audit.data);
  const data = audit.data ?? shown ?? null;
  const error = audit.isError ? (errorMessage(audit.error, 'Failed to load the audit log')) : null;

  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="admin-panel" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <form
        role="search"
        className="admin-search"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          if (search === submitted && page === 1) void audit.refetch();
          else setSubmitted(search);
        }}
      >
        <label htmlFor="audit-search" className="visually-hidden">
          Search the audit log
        </label>
        <input id="audit-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Staff member, action, reason or id" />
        <button type="submit" className="btn btn-primary btn-small">
          Search
        </button>
      </form>
      <QueryState
        data={data}
        error={error}
        loading="Loading…"
        isEmpty={(data) => data.entries.length === 0}
        empty="Nothing recorded yet."
      >
        {(data) => (
          <div className="table-wrap">
            <table className="admin-table" aria-label="Audit entries">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Target</th>
                  <th scope="col">Before</th>
                  <th scope="col">After</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e._id}>
                    <td>{new Date(e.createdAt).toLocaleString()}</td>
                    <td>{e.actor.username}</td>
                    <td>{e.action}</td>
                    <td className="mono">{e.targetType}:{e.targetId ?? '—'}</td>
                    <td className="mono">{summary(e.before)}</td>
                    <td className="mono">{summary(e.after)}</td>
                    <td>{e.reason ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      <Pagination page={page} pages={pages} onPage={setPage} label="Audit pages" />
    </section>
  );
}
