import { useState, type FormEvent } from 'react';
import { TICKET_MESSAGE_MAX, type CannedReply, type Ticket } from '#shared/schemas/tickets';
import { ApiError } from '#web/lib/api-client';
import { TicketStatusBadge, formatWhen } from './ticket-status-badge';

interface TicketThreadProps {
  ticket: Ticket;
  /** Who is reading: the requester's own messages are "You", staff answers are named. */
  viewer: 'requester' | 'staff';
  onReply: (message: string, internal: boolean) => Promise<void>;
  replyDisabledReason?: string | undefined;
  actions?: React.ReactNode;
  /** Staff: the reply box offers "internal note" and inserts canned replies. */
  cannedReplies?: CannedReply[] | undefined;
  allowInternal?: boolean;
  /** Under the thread (the requester's rating form). */
  footer?: React.ReactNode;
}

/** A ticket's messages (plain text, never HTML) and the reply box. */
export function TicketThread({ ticket, viewer, onReply, replyDisabledReason, actions, cannedReplies, allowInternal = false, footer }: TicketThreadProps) {
  const [message, setMessage] = useState('');
  const [internal, setInternal] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!message.trim()) {
      setError('Write a message first');
      return;
    }
    setSending(true);
    setError(null);
    try {
      await onReply(message, internal);
      setMessage('');
      setInternal(false);
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldErrors.message ?? err.message) : 'Failed to send your reply');
    } finally {
      setSending(false);
    }
  }

  return (
    <article className="ticket-thread" aria-labelledby={`ticket-${ticket._id}-title`}>
      <header className="ticket-thread-header">
        <h3 id={`ticket-${ticket._id}-title`}>
          {ticket.subject} <span className="muted">#{ticket.number}</span>
        </h3>
        <div className="ticket-meta">
          <TicketStatusBadge status={ticket.status} />
          <span className="tag">{ticket.category}</span>
          <span className="tag">Priority: {ticket.priority}</span>
          {viewer === 'staff' && (
            <span className="muted">
              From {ticket.requester.name}
              {ticket.assignedTo ? ` · assigned to ${ticket.assignedTo.username}` : ' · unassigned'}
            </span>
          )}
        </div>
        {actions && <div className="ticket-actions">{actions}</div>}
      </header>

      <ol className="ticket-messages" aria-label="Messages" aria-live="polite">
        {(ticket.messages ?? []).map((m) => {
          const mine = m.author === viewer;
          if (m.kind === 'event') {
            return (
              <li key={m._id} className="ticket-event">
                <p>
                  {m.body} <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time>
                </p>
              </li>
            );
          }
          return (
            <li key={m._id} className={`ticket-message ${m.author === 'staff' ? 'from-staff' : 'from-requester'}${m.kind === 'internal' ? ' internal-note' : ''}`}>
              <div className="ticket-message-head">
                <strong>{mine ? 'You' : m.authorName}</strong>
                {m.kind === 'internal' && <span className="tag">Internal note</span>}
                <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time>
              </div>
              <p className="ticket-message-body">{m.body}</p>
            </li>
          );
        })}
      </ol>

      {ticket.mergedInto && (
        <p className="notice" role="status">
          This ticket was merged into #{ticket.mergedInto.number}.
        </p>
      )}
      {footer}

      {replyDisabledReason ? (
        <p className="notice">{replyDisabledReason}</p>
      ) : (
        <form className="ticket-reply" onSubmit={submit} noValidate>
          {cannedReplies && cannedReplies.length > 0 && (
            <label className="inline-field">
              <span>Insert canned reply</span>
              <select
                value=""
                onChange={(e) => {
                  const chosen = cannedReplies.find((c) => c._id === e.target.value);
                  if (chosen) setMessage((current) => (current.trim() ? `${current.trimEnd()}\n\n${chosen.body}` : chosen.body));
                }}
              >
                <option value="">Choose…</option>
                {cannedReplies.map((c) => (
                  <option key={c._id} value={c._id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>
          )}
          <div className="field">
            <label htmlFor={`reply-${ticket._id}`}>{internal ? 'Internal note' : 'Your reply'}</label>
            <textarea
              id={`reply-${ticket._id}`}
              rows={4}
              maxLength={TICKET_MESSAGE_MAX}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `reply-${ticket._id}-error` : undefined}
            />
            {error && (
              <p id={`reply-${ticket._id}-error`} className="field-error" role="alert">
                {error}
              </p>
            )}
          </div>
          {allowInternal && (
            <label className="checkbox-field">
              <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} /> Internal note (the requester never sees it)
            </label>
          )}
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? 'Sending…' : internal ? 'Add note' : 'Send reply'}
          </button>
        </form>
      )}
    </article>
  );
}
