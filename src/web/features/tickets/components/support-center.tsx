import { plural, t } from '@lingui/core/macro';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { supportPath, ticketPath } from '#shared/routes';
import type { Ticket } from '#shared/schemas/tickets';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useUiStore } from '#web/stores/ui-store';
import { useSessionStore } from '#web/features/auth';
import { useTicket } from '../api/get-ticket';
import { SUPPORT_PAGE_SIZE, useTickets } from '../api/get-tickets';
import { useDownloadAttachment } from '../api/download-attachment';
import { requesterBase } from '../api/tickets-api';
import { useReplyToTicket, useUpdateTicket } from '../api/update-ticket';
import { useUploadTicketAttachment } from '../api/upload-attachment';
import { CreateTicketModal } from './create-ticket-modal';
import { TicketStatusBadge } from './ticket-status-badge';
import { RatingForm } from './rating-form';
import { TicketThread } from './ticket-thread';
import { useTicketAddress } from '../lib/use-ticket-address';
import './tickets.css';

export { SUPPORT_PAGE_SIZE };

/** The requester's support area (guests and users): ticket list, detail with the thread, new ticket. */
export function SupportCenter() {
  useLocale();
  const isGuest = useSessionStore((s) => s.isGuest);
  const setActiveView = useUiStore((s) => s.setActiveView);
  const openCreate = useUiStore((s) => s.setCreatingTicketModal);
  const [page, setPage] = useState(1);
  const { selectedId, openTicket, backToList } = useTicketAddress(supportPath, ticketPath);
  // The UI store's view follows the address (docs/product.md#browser-state).
  useEffect(() => setActiveView(selectedId ? 'ticketDetail' : 'ticketList'), [selectedId, setActiveView]);

  const showingDetail = selectedId !== null;

  // The list polls while it is shown and the open ticket while it is open; both live in the query cache.
  const listQuery = useTickets(isGuest, page, !showingDetail);
  const tickets = listQuery.data?.tickets ?? [];
  const loading = listQuery.isPending && listQuery.fetchStatus !== 'idle';
  const total = listQuery.data?.total ?? 0;
  const error = listQuery.isError ? errorMessage(listQuery.error, t`Failed to load your tickets`) : null;
  const detailQuery = useTicket(isGuest, showingDetail ? selectedId : null);
  const selected = detailQuery.data?.ticket ?? tickets.find((t) => t._id === selectedId) ?? null;
  const updateTicket = useUpdateTicket(isGuest, selectedId ?? '');
  const reply = useReplyToTicket(isGuest, selectedId ?? '');
  const uploadFile = useUploadTicketAttachment(isGuest, selectedId ?? '');
  const downloadFile = useDownloadAttachment(requesterBase(isGuest), selectedId ?? '');

  // The open ticket is gone (404), or the address never named one (400): back to the list.
  const gone = detailQuery.error instanceof ApiError && (detailQuery.error.status === 404 || detailQuery.error.status === 400);
  useEffect(() => {
    if (gone) backToList({ replace: true });
  }, [gone, backToList]);

  return (
    <section className="support-center" aria-labelledby="support-title">
      <div className="support-header">
        <h1 id="support-title">{t`Support`}</h1>
        <button type="button" className="btn btn-primary btn-small" onClick={() => openCreate(true)}>
          {t`New ticket`}
        </button>
      </div>

      {showingDetail && selected ? (
        <>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => backToList()}>
            {t`← All tickets`}
          </button>
          {selected.messages ? (
            <TicketThread
              ticket={selected}
              viewer="requester"
              replyDisabledReason={selected.status === 'closed' ? t`This ticket is closed. Open a new ticket to continue.` : undefined}
              reply={reply}
              footer={<RatingForm ticket={selected} isGuest={isGuest} />}
              attach={uploadFile}
              download={downloadFile}
              actions={
                selected.mergedInto ? undefined : (
                  <button
                    type="button"
                    className="btn btn-secondary btn-small"
                    onClick={() =>
                      void updateTicket.mutateAsync({ kind: 'status', status: selected.status === 'closed' ? 'open' : 'closed' })
                    }
                  >
                    {selected.status === 'closed' ? t`Reopen ticket` : t`Close ticket`}
                  </button>
                )
              }
            />
          ) : (
            <p aria-busy="true">{t`Loading ticket…`}</p>
          )}
        </>
      ) : (
        <QueryState
          // An error (a failed poll too) shows in place of the list, as before.
          data={loading || error ? undefined : tickets}
          loading={t`Loading your tickets…`}
          error={error}
          onRetry={() => void listQuery.refetch()}
          isEmpty={(list) => list.length === 0}
          empty={t`No tickets yet. If something is not right, open a ticket and our team will answer here.`}
        >
          {(list) => (
            <ul className="ticket-list" aria-label={t`Your tickets`}>
              {list.map((ticket) => (
                <li key={ticket._id}>
                  {/* A row is a link to the ticket's address (docs/decisions/0313): it opens in a new tab too. */}
                  <Link className="ticket-row" to={ticketPath(ticket._id)}>
                    <span className="ticket-row-subject">
                      {ticket.subject} <span className="muted">#{ticket.number}</span>
                    </span>
                    <TicketStatusBadge status={ticket.status} reader="requester" />
                    <span className="muted ticket-row-when">
                      {plural(ticket.messageCount, { one: '# message', other: '# messages' })} ·{' '}
                      {formatLocaleDateTime(ticket.lastMessageAt)}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      )}
      {!showingDetail && total > SUPPORT_PAGE_SIZE && (
        <Pagination page={page} pages={Math.ceil(total / SUPPORT_PAGE_SIZE)} onPage={setPage} label={t`Ticket pages`} />
      )}

      <CreateTicketModal isGuest={isGuest} onCreated={(ticket: Ticket) => openTicket(ticket._id)} />
    </section>
  );
}
