import { useId, useState } from 'react';
import { Pagination } from '#web/components/ui/pagination';
import { QueryTable } from '#web/components/ui/query-table';
import { formatWhen } from '#web/lib/format';
import { errorMessage } from '#web/lib/api-client';
import { useOutgoingMail } from '../api/get-outgoing-mail';
import { useRetryMail } from '../api/retry-mail';

const STATUSES = ['', 'failed', 'pending', 'sending', 'sent'] as const;

/** Outgoing mail for staff: what was sent, what is waiting, and what failed with the mail server's answer. */
export function MailPanel() {
  const id = useId();
  const [status, setStatus] = useState<string>('failed');
  const [page, setPage] = useState(1);
  const mail = useOutgoingMail({ status, page });
  const retry = useRetryMail();
  const pages = mail.data ? Math.max(1, Math.ceil(mail.data.total / mail.data.pageSize)) : 1;

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Outgoing mail</h2>
      <div className="admin-search">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}
        >
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s || 'all'}
            </option>
          ))}
        </select>
      </div>
      <p role="status" aria-live="polite">
        {retry.isSuccess ? retry.data.message : retry.isError ? errorMessage(retry.error, 'Could not queue the message again') : ''}
      </p>
      <QueryTable
        query={mail}
        label="Outgoing mail"
        rows={(data) => data.messages}
        loading="Loading…"
        failed="Failed to load outgoing mail"
        empty={`No ${status || ''} messages.`}
        columns={
          <>
            <th scope="col">Created</th>
            <th scope="col">To</th>
            <th scope="col">Subject</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Last error</th>
            <th scope="col">Sent</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </>
        }
        row={(m) => (
          <tr key={m._id}>
            <td>{formatWhen(m.createdAt)}</td>
            <td>{m.to}</td>
            <td>{m.subject}</td>
            <td>{m.status}</td>
            <td>{m.attempts}</td>
            <td>{m.lastError ?? '—'}</td>
            <td>{formatWhen(m.sentAt)}</td>
            <td>
              {m.status === 'failed' && (
                <button type="button" className="btn btn-ghost btn-small" disabled={retry.isPending} onClick={() => retry.mutate(m._id)}>
                  Send again<span className="visually-hidden"> to {m.to}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <Pagination page={page} pages={pages} onPage={setPage} label="Mail pages" busy={mail.isFetching} />
    </section>
  );
}
