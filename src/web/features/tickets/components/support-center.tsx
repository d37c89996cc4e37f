import { useCallback, useState } from 'react';
import type { Ticket } from '../../../../shared/schemas/tickets';
import { Pagination } from '../../../components/ui/pagination';
import { ApiError } from '../../../lib/api-client';
import { useUiStore } from '../../../stores/ui-store';
import { useSessionStore } from '../../auth/stores/session-store';
import { ticketsApi } from '../api/tickets-api';
import { usePolling, useRunOnChange } from '../hooks/use-polling';
import { CreateTicketModal } from './create-ticket-modal';
import { TicketStatusBadge, formatWhen } from './ticket-status-badge';
import { TicketThread } from './ticket-thread';
import './tickets.css';

const LIST_POLL_MS = 15_000;
const DETAIL_POLL_MS = 5_000;
export const SUPPORT_PAGE_SIZE = 20;

/** The requester's support area (guests and users): ticket list, detail with the thread, new ticket. */
export function SupportCenter() {
  const isGuest = useSessionStore((s) => s.isGuest);
  const activeView = useUiStore((s) => s.activeView);
  const setActiveView = useUiStore((s) => s.setActiveView);
  const tickets = useUiStore((s) => s.tickets) as Ticket[];
  const setTickets = useUiStore((s) => s.setTickets);
  const addTicket = useUiStore((s) => s.addTicket);
  const openCreate = useUiStore((s) => s.setCreatingTicketModal);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [total, setTotal] = useState(0);

  const loadList = useCallback(async () => {
    try {
      const res = await ticketsApi.list(isGuest, { page, pageSize: SUPPORT_PAGE_SIZE });
      setTickets(res.tickets);
      setTotal(res.total);
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Failed to load your tickets');
    } finally {
      setLoading(false);
    }
  }, [isGuest, page, setTickets]);

  const showingDetail = activeView === 'ticketDetail' && selectedId !== null;
  const selected = tickets.find((t) => t._id === selectedId) ?? null;

  const loadDetail = useCallback(async () => {
    if (!selectedId) return;
    try {
      const { ticket } = await ticketsApi.get(isGuest, selectedId);
      addTicket(ticket);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setActiveView('ticketList');
        setSelectedId(null);
      }
    }
  }, [isGuest, selectedId, addTicket, setActiveView]);

  usePolling(loadList, LIST_POLL_MS, !showingDetail);
  usePolling(loadDetail, DETAIL_POLL_MS, showingDetail);

  // Another page loads at once, not at the next poll.
  useRunOnChange(loadList);

  function open(ticket: Ticket) {
    setSelectedId(ticket._id);
    setActiveView('ticketDetail');
  }

  function backToList() {
    setActiveView('ticketList');
    setSelectedId(null);
  }

  return (
    <section className="support-center" aria-labelledby="support-title">
      <div className="support-header">
        <h2 id="support-title">Support</h2>
        <button type="button" className="btn btn-primary btn-small" onClick={() => openCreate(true)}>
          New ticket
        </button>
      </div>

      {showingDetail && selected ? (
        <>
          <button type="button" className="btn btn-ghost btn-small" onClick={backToList}>
            ← All tickets
          </button>
          {selected.messages ? (
            <TicketThread
              ticket={selected}
              viewer="requester"
              replyDisabledReason={selected.status === 'closed' ? 'This ticket is closed. Open a new ticket to continue.' : undefined}
              onReply={async (message) => addTicket((await ticketsApi.reply(isGuest, selected._id, message)).ticket)}
              actions={
                <button
                  type="button"
                  className="btn btn-secondary btn-small"
                  onClick={async () => addTicket((await ticketsApi.setStatus(isGuest, selected._id, selected.status === 'closed' ? 'open' : 'closed')).ticket)}
                >
                  {selected.status === 'closed' ? 'Reopen ticket' : 'Close ticket'}
                </button>
              }
            />
          ) : (
            <p aria-busy="true">Loading ticket…</p>
          )}
        </>
      ) : loading ? (
        <p aria-busy="true">Loading your tickets…</p>
      ) : error ? (
        <div className="notice" role="alert">
          <p>{error}</p>
          <button type="button" className="btn btn-secondary btn-small" onClick={() => void loadList()}>
            Try again
          </button>
        </div>
      ) : tickets.length === 0 ? (
        <div className="empty-state">
          <p>No tickets yet. If something is not right, open a ticket and our team will answer here.</p>
        </div>
      ) : (
        <ul className="ticket-list" aria-label="Your tickets">
          {tickets.map((ticket) => (
            <li key={ticket._id}>
              <button type="button" className="ticket-row" onClick={() => open(ticket)}>
                <span className="ticket-row-subject">
                  {ticket.subject} <span className="muted">#{ticket.number}</span>
                </span>
                <TicketStatusBadge status={ticket.status} />
                <span className="muted ticket-row-when">
                  {ticket.messageCount} {ticket.messageCount === 1 ? 'message' : 'messages'} · {formatWhen(ticket.lastMessageAt)}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {!showingDetail && total > SUPPORT_PAGE_SIZE && (
        <Pagination page={page} pages={Math.ceil(total / SUPPORT_PAGE_SIZE)} onPage={setPage} label="Ticket pages" />
      )}

      <CreateTicketModal isGuest={isGuest} onCreated={(ticket) => {
        addTicket(ticket);
        open(ticket);
      }} />
    </section>
  );
}
