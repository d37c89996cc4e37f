import { useState, type FormEvent } from 'react';
import { TICKET_MESSAGE_MAX, type Ticket } from '#shared/schemas/tickets';
import { ApiError } from '#web/lib/api-client';
import { TicketStatusBadge, formatWhen } from './ticket-status-badge';
import { TextareaField } from '#web/components/ui/forms';

interface TicketThreadProps {
  ticket: Ticket;
  /** Who is reading: the requester's own messages are "You", staff answers are named. */
  viewer: 'requester' | 'staff';
  onReply: (message: string) => Promise<void>;
  replyDisabledReason?: string | undefined;
  actions?: React.ReactNode;
}

/** A ticket's messages (plain text, never HTML) and the reply box. */
export function TicketThread({ ticket, viewer, onReply, replyDisabledReason, actions }: TicketThreadProps) {
  const [message, setMessage] = useState('');
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
      await onReply(message);
      setMessage('');
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
          return (
            <li key={m._id} className={`ticket-message ${m.author === 'staff' ? 'from-staff' : 'from-requester'}`}>
              <div className="ticket-message-head">
                <strong>{mine ? 'You' : m.authorName}</strong>
                <time dateTime={m.createdAt}>{formatWhen(m.createdAt)}</time>
              </div>
              <p className="ticket-message-body">{m.body}</p>
            </li>
          );
        })}
      </ol>

      {replyDisabledReason ? (
        <p className="notice">{replyDisabledReason}</p>
      ) : (
        <form className="ticket-reply" onSubmit={submit} noValidate>
          <TextareaField
            id={`reply-${ticket._id}`}
            label="Your reply"
            error={error}
            errorAlert
            rows={4}
            maxLength={TICKET_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? 'Sending…' : 'Send reply'}
          </button>
        </form>
      )}
    </article>
  );
}
