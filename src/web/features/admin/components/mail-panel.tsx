import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Pagination } from '#web/components/ui/pagination';
import { QueryTable } from '#web/components/ui/query-table';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { useOutgoingMail } from '../api/get-outgoing-mail';
import { useRetryMail } from '../api/retry-mail';
import { codeLabel, MAIL_STATUS_LABELS } from './labels';

const STATUSES = ['', 'failed', 'pending', 'sending', 'sent'] as const;

/** A moment in the language on screen, or "—" when there is none. */
const when = (iso: string | null) => (iso ? formatLocaleDateTime(iso) : '—');

/** Outgoing mail for staff: what was sent, what is waiting, and what failed with the mail server's answer. */
export function MailPanel() {
  useLocale();
  const id = useId();
  const [status, setStatus] = useState<string>('failed');
  const [page, setPage] = useState(1);
  const mail = useOutgoingMail({ status, page });
  const retry = useRetryMail();
  const pages = mail.data ? Math.max(1, Math.ceil(mail.data.total / mail.data.pageSize)) : 1;

  return (
    <section className="admin-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Outgoing mail`}</h2>
      <div className="admin-search">
        <label htmlFor={`${id}-status`}>{t`Status`}</label>
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
              {s ? codeLabel(MAIL_STATUS_LABELS, s) : t`all`}
            </option>
          ))}
        </select>
      </div>
      <p role="status" aria-live="polite">
        {retry.isSuccess ? retry.data.message : retry.isError ? errorMessage(retry.error, t`Could not queue the message again`) : ''}
      </p>
      <QueryTable
        query={mail}
        label={t`Outgoing mail`}
        rows={(data) => data.messages}
        loading={t`Loading…`}
        failed={t`Failed to load outgoing mail`}
        empty={status ? t`No ${status} messages.` : t`No messages.`}
        columns={
          <>
            <th scope="col">{t`Created`}</th>
            <th scope="col">{t`To`}</th>
            <th scope="col">{t`Subject`}</th>
            <th scope="col">{t`Status`}</th>
            <th scope="col">{t`Attempts`}</th>
            <th scope="col">{t`Last error`}</th>
            <th scope="col">{t`Sent`}</th>
            <th scope="col">
              <span className="visually-hidden">{t`Actions`}</span>
            </th>
          </>
        }
        row={(m) => (
          <tr key={m._id}>
            <td>{when(m.createdAt)}</td>
            <td>{m.to}</td>
            <td>{m.subject}</td>
            <td>{codeLabel(MAIL_STATUS_LABELS, m.status)}</td>
            <td>{m.attempts}</td>
            <td>{m.lastError ?? '—'}</td>
            <td>{when(m.sentAt)}</td>
            <td>
              {m.status === 'failed' && (
                <button type="button" className="btn btn-ghost btn-small" disabled={retry.isPending} onClick={() => retry.mutate(m._id)}>
                  {t`Send again`}
                  <span className="visually-hidden"> {t`to ${m.to}`}</span>
                </button>
              )}
            </td>
          </tr>
        )}
      />
      <Pagination page={page} pages={pages} onPage={setPage} label={t`Mail pages`} busy={mail.isFetching} />
    </section>
  );
}
