import { useState, type FormEvent } from 'react';
import { TICKET_RATING_COMMENT_MAX, type Ticket } from '#shared/schemas/tickets';
import { TextareaField } from '#web/components/ui/forms';
import { errorMessage } from '#web/lib/api-client';
import { useRateTicket } from '../api/rate-ticket';

const SCORES = [1, 2, 3, 4, 5] as const;

/** After a ticket is resolved or closed, its requester rates the answer once (decision 0190). */
export function RatingForm({ ticket, isGuest }: { ticket: Ticket; isGuest: boolean }) {
  const rate = useRateTicket(isGuest, ticket._id);
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (ticket.mergedInto || (ticket.status !== 'closed' && ticket.status !== 'resolved')) return null;
  if (ticket.rating) {
    return (
      <p className="notice ticket-rating" role="status">
        You rated this answer {ticket.rating.score} of 5{ticket.rating.comment ? `: “${ticket.rating.comment}”` : '.'} Thank you.
      </p>
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (score === null) {
      setError('Choose a score from 1 to 5');
      return;
    }
    setError(null);
    try {
      await rate.mutateAsync({ score, ...(comment.trim() ? { comment } : {}) });
    } catch (err) {
      setError(errorMessage(err, 'Failed to send your rating'));
    }
  }

  return (
    <form className="ticket-rating" onSubmit={submit} noValidate aria-label="Rate the answer">
      <fieldset>
        <legend>How was the answer? (once per ticket)</legend>
        <div className="rating-scores">
          {SCORES.map((n) => (
            <label key={n} className="rating-score">
              <input type="radio" name={`rating-${ticket._id}`} value={n} checked={score === n} onChange={() => setScore(n)} />
              {n}
            </label>
          ))}
        </div>
      </fieldset>
      <TextareaField
        label="Comment (optional)"
        rows={2}
        maxLength={TICKET_RATING_COMMENT_MAX}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        error={error}
      />
      <button type="submit" className="btn btn-primary btn-small" disabled={rate.isPending}>
        {rate.isPending ? 'Sending…' : 'Send rating'}
      </button>
    </form>
  );
}
