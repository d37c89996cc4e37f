import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type MouseEvent } from 'react';
import { Link } from 'react-router';
import { staffPaths } from '#shared/routes';
import toast from 'react-hot-toast';
import { TICKET_PRIORITIES, TICKET_STATUSES } from '#shared/schemas/tickets';
import { Pagination } from '#web/components/ui/pagination';
import { QueryState } from '#web/components/ui/query-state';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { formatLocaleDateTime, formatLocaleNumber } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { errorMessage } from '#web/lib/api-client';
import { useCannedReplies } from '../api/get-canned-replies';
import { staffTicketQueryOptions, useStaffTicket } from '../api/get-staff-ticket';
import { useStaffMembers } from '../api/get-staff-members';
import { STAFF_PAGE_SIZE, useStaffTickets } from '../api/get-staff-tickets';
import { useTicketRatings } from '../api/get-ticket-ratings';
import { useDownloadAttachment } from '../api/download-attachment';
import { useMergeTicket } from '../api/merge-ticket';
import { useUploadStaffAttachment } from '../api/upload-attachment';
import { useStaffReply, useUpdateStaffTicket, type StaffTicketChange } from '../api/update-staff-ticket';
import { CannedRepliesPanel } from './canned-replies-panel';
import { firstResponseLabel } from './first-response';
import { SlaBadges } from './sla-badges';
import { TicketStatusBadge, ticketPriorityLabel, ticketStatusLabel } from './ticket-status-badge';
import { TagList, TicketTags } from './ticket-tags';
import { RequesterContextPanel } from './requester-context-panel';
import { TicketThread } from './ticket-thread';
import { useTicketAddress } from '../lib/use-ticket-address';
import './tickets.css';

const PAGE_SIZE = STAFF_PAGE_SIZE;

const assignedTo = (username: string) => t`Assigned to ${username}`;
const mergedInto = (number: number) => t`merged into #${number}`;

/** Staff queue: every ticket, filtered, with answer, status and assignment (support and admin). */
export function StaffQueue() {
  useLocale();
  const [filters, setFilters] = useState({ status: '', priority: '', search: '', assigned: 'any', sla: '' });
  const [page, setPage] = useState(1);
  const { selectedId, openTicket, backToList } = useTicketAddress(staffPaths.tickets, staffPaths.ticket);
  const client = useQueryClient();

  // The queue polls while no ticket is open; a changed filter or page asks at once (a new key).
  const listQuery = useStaffTickets(filters, page, selectedId === null);
  // The last answer stays on screen while another loads, or when it fails.
  const [shown, setShown] = useState(listQuery.data);
  if (listQuery.data && listQuery.data !== shown) setShown(listQuery.data);
  const list = listQuery.data ?? shown ?? null;
  const error = listQuery.isError ? errorMessage(listQuery.error, t`Failed to load tickets`) : null;

  // The open ticket polls every 5 seconds; a failed poll keeps what is shown.
  const selectedQuery = useStaffTicket(selectedId);
  const selected = selectedQuery.data?.ticket ?? null;
  const updateTicket = useUpdateStaffTicket(selectedId ?? '');
  const mergeTicket = useMergeTicket(selectedId ?? '');
  const reply = useStaffReply(selectedId ?? '');
  const uploadFile = useUploadStaffAttachment(selectedId ?? '');
  const downloadFile = useDownloadAttachment('/api/staff/tickets', selectedId ?? '');
  const staffMembers = useStaffMembers().data?.staff ?? [];
  const cannedReplies = useCannedReplies().data?.replies ?? [];
  const ratings = useTicketRatings().data ?? null;
  const [mergeNumber, setMergeNumber] = useState('');
  // The list's timers are relative to when the page was last fetched (it polls every 15 s).
  const now = listQuery.dataUpdatedAt || Date.now();

  function openInPlace(event: MouseEvent, id: string) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void open(id);
  }

  async function open(id: string) {
    try {
      await client.fetchQuery(staffTicketQueryOptions(id));
      openTicket(id);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to open ticket`));
    }
  }

  async function change(update: Extract<StaffTicketChange, { kind: 'update' }>['change']) {
    if (!selected) return;
    try {
      await updateTicket.mutateAsync({ kind: 'update', change: update });
      toast.success(t`Ticket updated`);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to update ticket`));
    }
  }

  // Merging a duplicate says everything in toasts: a number that is none, the merge done, or why it failed.
  const mergeForm = useForm({
    focus: false,
    action: async () => {
      const n = Number(mergeNumber.replace(/^#/, '').trim());
      if (!Number.isInteger(n) || n <= 0) {
        toast.error(t`Type the number of the duplicate ticket, e.g. 1042`);
        return;
      }
      try {
        await mergeTicket.mutateAsync(n);
        setMergeNumber('');
        toast.success(t`Ticket #${n} merged into this one`);
      } catch (err) {
        toast.error(errorMessage(err, t`Failed to merge`));
      }
    },
  });
  // The filters apply as they change; submitting the search (Enter) does nothing more.
  const filterForm = useForm({ focus: false, action: () => undefined });

  if (selected) {
    return (
      <section className="support-center" aria-label={t`Ticket`}>
        <button type="button" className="btn btn-ghost btn-small" onClick={() => backToList()}>
          {t`← Back to queue`}
        </button>
        <div className="ticket-with-requester">
          <TicketThread
            ticket={selected}
            viewer="staff"
            reply={reply}
            allowInternal
            cannedReplies={cannedReplies}
            attach={uploadFile}
            download={downloadFile}
            actions={
              <>
                {/* SLA targets, met and late ones too (docs/decisions/0293). */}
                <SlaBadges ticket={selected} now={selectedQuery.dataUpdatedAt || now} showDone />
                <label className="inline-field">
                  <span>{t`Status`}</span>
                  <select value={selected.status} onChange={(e) => void change({ status: e.target.value })}>
                    {TICKET_STATUSES.map((s) => (
                      <option key={s} value={s}>
                        {ticketStatusLabel(s, 'staff')}
                      </option>
                    ))}
                  </select>
                </label>
                <label className="inline-field">
                  <span>{t`Assignee`}</span>
                  <select value={selected.assignedTo?._id ?? ''} onChange={(e) => void change({ assigneeId: e.target.value || null })}>
                    <option value="">{t`Unassigned`}</option>
                    {selected.assignedTo && !staffMembers.some((m) => m._id === selected.assignedTo!._id) && (
                      <option value={selected.assignedTo._id}>{selected.assignedTo.username}</option>
                    )}
                    {staffMembers.map((m) => (
                      <option key={m._id} value={m._id}>
                        {m.username}
                      </option>
                    ))}
                  </select>
                </label>
                <button type="button" className="btn btn-secondary btn-small" onClick={() => void change({ assignToMe: true })}>
                  {t`Assign to me`}
                </button>
                {/* Tags: staff labels, also set by automation rules (decision 0294). */}
                <TicketTags ticketId={selected._id} tags={selected.tags ?? []} />
                {!selected.mergedInto && (
                  <Form form={mergeForm} noValidate={false} className="inline-field merge-form">
                    <label>
                      <span>{t`Merge duplicate #`}</span>
                      <input
                        inputMode="numeric"
                        size={7}
                        value={mergeNumber}
                        onChange={(e) => setMergeNumber(e.target.value)}
                        aria-label={t`Number of the duplicate ticket to merge into this one`}
                      />
                    </label>
                    <StatusButton busy={mergeTicket.isPending} className="btn btn-secondary btn-small">
                      {t`Merge into this ticket`}
                    </StatusButton>
                  </Form>
                )}
              </>
            }
          />
          <RequesterContextPanel ticketId={selected._id} />
        </div>
      </section>
    );
  }

  const pages = list ? Math.max(1, Math.ceil(list.total / PAGE_SIZE)) : 1;
  const update = (key: keyof typeof filters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    setFilters((f) => ({ ...f, [key]: e.target.value }));
    setPage(1);
  };

  const averageRating = ratings?.overall.average == null ? null : formatLocaleNumber(ratings.overall.average, 2);
  const ratedCount = ratings?.overall.count ?? 0;
  return (
    <section className="support-center" aria-labelledby="queue-title">
      <h2 id="queue-title">{t`Ticket queue`}</h2>
      {ratings && (
        <section className="rating-summary" aria-label={t`Ratings`}>
          <p>
            {t`Average rating:`} <strong>{averageRating === null ? t`none yet` : t`${averageRating} / 5`}</strong>{' '}
            <span className="muted">{t`(${ratedCount} rated)`}</span>
          </p>
          {ratings.byStaff.length > 0 && (
            <ul aria-label={t`Average rating per staff member`}>
              {ratings.byStaff.map((r) => (
                <li key={r._id}>
                  {r.username}: {r.average === null ? '—' : formatLocaleNumber(r.average, 2)} <span className="muted">({r.count})</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <CannedRepliesPanel replies={cannedReplies} />
      <Form form={filterForm} noValidate={false} className="queue-filters" role="search">
        <label className="inline-field">
          <span>{t`Search`}</span>
          <input type="search" value={filters.search} onChange={update('search')} placeholder={t`Subject, user or #number`} />
        </label>
        <label className="inline-field">
          <span>{t`Status`}</span>
          <select value={filters.status} onChange={update('status')}>
            <option value="">{t`Any`}</option>
            {TICKET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {ticketStatusLabel(s, 'staff')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t`Priority`}</span>
          <select value={filters.priority} onChange={update('priority')}>
            <option value="">{t`Any`}</option>
            {TICKET_PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {ticketPriorityLabel(p)}
              </option>
            ))}
          </select>
        </label>
        <label className="inline-field">
          <span>{t`Assigned`}</span>
          <select value={filters.assigned} onChange={update('assigned')}>
            <option value="any">{t`Anyone`}</option>
            <option value="me">{t`Me`}</option>
            <option value="unassigned">{t`Unassigned`}</option>
          </select>
        </label>
        {/* SLA filter (docs/decisions/0293). */}
        <label className="inline-field">
          <span>SLA</span>
          <select value={filters.sla} onChange={update('sla')}>
            <option value="">{t`Any`}</option>
            <option value="breached">{t`Breached`}</option>
            <option value="due_soon">{t`Due within a business hour`}</option>
          </select>
        </label>
      </Form>

      <QueryState
        data={list}
        error={error}
        loading={t`Loading tickets…`}
        isEmpty={(l) => l.tickets.length === 0}
        empty={t`No tickets match these filters.`}
      >
        {(list) => (
          <>
            <ul className="ticket-list" aria-label={t`Tickets`}>
              {list.tickets.map((ticket) => (
                <li key={ticket._id}>
                  {/* A link to the ticket's address (a new tab opens it there); a plain click loads it first, in place. */}
                  <Link className="ticket-row" to={staffPaths.ticket(ticket._id)} onClick={(event) => openInPlace(event, ticket._id)}>
                    <span className="ticket-row-subject">
                      {ticket.subject} <span className="muted">#{ticket.number}</span>
                    </span>
                    <TicketStatusBadge status={ticket.status} reader="staff" />
                    <span className="muted ticket-row-when">
                      {ticket.requester.name} · {ticketPriorityLabel(ticket.priority)} · {formatLocaleDateTime(ticket.lastMessageAt)}
                    </span>
                    <span className="ticket-row-desk">
                      <span>{ticket.assignedTo ? assignedTo(ticket.assignedTo.username) : t`Unassigned`}</span>
                      {firstResponseLabel(ticket, now) && (
                        <span className={ticket.firstResponseAt ? 'muted' : 'waiting'}> · {firstResponseLabel(ticket, now)}</span>
                      )}
                      {ticket.mergedInto && <span className="muted"> · {mergedInto(ticket.mergedInto.number)}</span>}
                    </span>
                    <span className="ticket-row-sla">
                      <SlaBadges ticket={ticket} now={now} />
                    </span>
                    {ticket.tags && ticket.tags.length > 0 && <TagList tags={ticket.tags} />}
                  </Link>
                </li>
              ))}
            </ul>
            <Pagination page={page} pages={pages} onPage={setPage} label={t`Pages`} />
          </>
        )}
      </QueryState>
    </section>
  );
}
