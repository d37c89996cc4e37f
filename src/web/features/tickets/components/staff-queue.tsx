import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast';
import {
  TICKET_PRIORITIES,
  TICKET_STATUSES,
} from '#shared/schemas/tickets';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { ApiError } from '#web/lib/api-client';
import { staffTicketQueryOptions, useStaffTicket } from '../api/get-staff-ticket';
import { STAFF_PAGE_SIZE, useStaffTickets } from '../api/get-staff-tickets';
import { useUpdateStaffTicket, type StaffTicketChange } from '../api/update-staff-ticket';
import { TicketStatusBadge, formatWhen } from './ticket-status-badge';
import { TicketThread } from './ticket-thread';
import './tickets.css';

const PAGE_SIZE = STAFF_PAGE_SIZE;

/** Staff queue: every ticket, filtered, with answer, status and assignment (support and admin). */
export function StaffQueue() {
  const [filters, setFilters] = useState({ status: '', priority: '', search: '', assigned: 'any' });
  const [page, setPage] = useState(1);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const client = useQueryClient();

  // The queue polls while no ticket is open; a changed filter or page asks at once (a new key).
  const listQuery = useStaffTickets(filters, page, selectedId === null);
  // The last answer stays on screen while another loads, or when it fails.
  const [shown, setShown] = useState(listQuery.data);
  if (listQuery.data && listQuery.data !== shown) setShown(listQuery.data);
  const list = listQuery.data ?? shown ?? null;
  const error = listQuery.isError ? (listQuery.error instanceof ApiError ? listQuery.error.message : 'Failed to load tickets') : null;

  // The open ticket polls every 5 seconds; a failed poll keeps what is shown.
  const selected = useStaffTicket(selectedId).data?.ticket ?? null;
  const updateTicket = useUpdateStaffTicket(selectedId ?? '');

  async function open(id: string) {
    try {
      await client.fetchQuery(staffTicketQueryOptions(id));
      setSelectedId(id);
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'Failed to open ticket');
    }
  }

  async function change(update: Extract<StaffTicketChange, { kind: 'update' }>['change']) {
    if (!selected) return;
    try {
      await updateTicket.mutateAsync({ kind: 'update', change: update });
      toast.success('Ticket updated');
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'Failed to update ticket');
    }
  }

  if (selected) {
    return (
      <section className="support-center" aria-label="Ticket">
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setSelectedId(null)}>
          ← Back to queue
        </button>
        <TicketThread
          ticket={selected}
          viewer="staff"
          onReply={async (message) => void (await updateTicket.mutateAsync({ kind: 'reply', message }))}
          actions={
            <>
              <label className="inline-field">
                <span>Status</span>
                <select value={selected.status} onChange={(e) => void change({ status: e.target.value })}>
                  {TICKET_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </label>
              <button type="button" className="btn btn-secondary btn-small" onClick={() => void change({ assignToMe: true })}>
                Assign to me
              </button>
            </>
          }
        />
      </section>
    );
  }

  const pages = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;
  const update = (key: keyof typeof filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    setPage(1);
  };

  return (
    <section className="support-center" aria-labelledby="queue-title">
      <h2 id="queue-title">Ticket queue</h2>
      <form className="queue-filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="inline-field">
          <span>Search</span>
          <input type="search" value={filters.search} onChange={update('search')} placeholder="Subject, user or #number" />
        </label>
        <label className="inline-field">
          <span>Status</span>
          <select value={filters.status} onChange={update('status')}>
            <option value="">Any</option>
            {TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Priority</span>
          <select value={filters.priority} onChange={update('priority')}>
            <option value="">Any</option>
            {TICKET_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>Assigned</span>
          <select value={filters.assigned} onChange={update('assigned')}>
            <option value="any">Anyone</option>
            <option value="me">Me</option>
            <option value="unassigned">Unassigned</option>
          </select>
        </label>
      </form>

      <QueryState data={list} error={error} loading="Loading tickets…" isEmpty={(l) => l.tickets.length === 0} empty="No tickets match these filters.">
        {(list) => (
          <>
            <ul className="ticket-list" aria-label="Tickets">
              {list.tickets.map((ticket) => (
                <li key={ticket._id}>
                  <button
                    type="button"
                    className="ticket-row"
                    onClick={() => void open(ticket._id)}
                  >
                    <span className="ticket-row-subject">
                      {ticket.subject} <span className="muted">#{ticket.number}</span>
                    </span>
                    <TicketStatusBadge status={ticket.status} />
                    <span className="muted ticket-row-when">
                      {ticket.requester.name} · {ticket.priority} · {formatWhen(ticket.lastMessageAt)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
            <Pagination page={page} pages={pages} onPage={setPage} label="Pages" />
          </>
        )}
      </QueryState>
    </section>
  );
}
