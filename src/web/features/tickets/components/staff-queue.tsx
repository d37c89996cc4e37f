import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import {
  TICKET_PRIORITIES,
  TICKET_STATUSES,
  type Ticket,
  type TicketListResponse,
} from '../../../../shared/schemas/tickets';
import { Pagination } from '../../../components/ui/pagination';
import { ApiError } from '../../../lib/api-client';
import { staffTicketsApi } from '../api/tickets-api';
import { usePolling, useRunOnChange } from '../hooks/use-polling';
import { TicketStatusBadge, formatWhen } from './ticket-status-badge';
import { TicketThread } from './ticket-thread';
import './tickets.css';

const PAGE_SIZE = 20;

/** Staff queue: every ticket, filtered, with answer, status and assignment (support and admin). */
export function StaffQueue() {
  const [filters, setFilters] = useState({ status: '', priority: '', search: '', assigned: 'any' });
  const [page, setPage] = useState(1);
  const [list, setList] = useState<TicketListResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<Ticket | null>(null);

  // Typing in the search box fires one request per key: only the newest answer is shown.
  const latestRequest = useRef(0);
  const load = useCallback(async () => {
    const request = ++latestRequest.current;
    try {
      const res = await staffTicketsApi.list({ ...filters, page, pageSize: PAGE_SIZE });
      if (request !== latestRequest.current) return;
      setList(res);
      setError(null);
    } catch (err) {
      if (request !== latestRequest.current) return;
      setError(err instanceof ApiError ? err.message : 'Failed to load tickets');
    }
  }, [filters, page]);

  const loadSelected = useCallback(async () => {
    if (!selected) return;
    try {
      setSelected((await staffTicketsApi.get(selected._id)).ticket);
    } catch {
      // Keep what is shown; the next poll tries again.
    }
  }, [selected]);

  usePolling(load, 15_000, selected === null);
  // A changed filter or page shows its tickets at once, not at the next poll.
  useRunOnChange(load);
  usePolling(loadSelected, 5_000, selected !== null);

  async function change(update: { status?: string; assignToMe?: boolean }) {
    if (!selected) return;
    try {
      setSelected((await staffTicketsApi.update(selected._id, update)).ticket);
      toast.success('Ticket updated');
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'Failed to update ticket');
    }
  }

  if (selected) {
    return (
      <section className="support-center" aria-label="Ticket">
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setSelected(null)}>
          ← Back to queue
        </button>
        <TicketThread
          ticket={selected}
          viewer="staff"
          onReply={async (message) => setSelected((await staffTicketsApi.reply(selected._id, message)).ticket)}
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

      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {!list ? (
        <p aria-busy="true">Loading tickets…</p>
      ) : list.tickets.length === 0 ? (
        <p className="empty-state">No tickets match these filters.</p>
      ) : (
        <>
          <ul className="ticket-list" aria-label="Tickets">
            {list.tickets.map((ticket) => (
              <li key={ticket._id}>
                <button
                  type="button"
                  className="ticket-row"
                  onClick={async () => {
                    try {
                      setSelected((await staffTicketsApi.get(ticket._id)).ticket);
                    } catch (err) {
                      toast.error(err instanceof ApiError ? err.message : 'Failed to open ticket');
                    }
                  }}
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
    </section>
  );
}
