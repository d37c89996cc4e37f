import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { TICKET_RATING_COMMENT_MAX, type Ticket } from '#shared/schemas/tickets';
import { TextareaField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { useRateTicket } from '../api/rate-ticket';

const SCORES = [1, 2, 3, 4, 5] as const;

/** After a ticket is resolved or closed, its requester rates the answer once (decision 0190). */
export function RatingForm({ ticket, isGuest }: { ticket: Ticket; isGuest: boolean }) {
  useLocale();
  const rate = useRateTicket(isGuest, ticket._id);
  const [score, setScore] = useState<number | null>(null);
  const [comment, setComment] = useState('');
  // Every message shows under the comment: the missing score, or why the rating was not saved.
  const form = useForm<'comment'>({
    focus: false,
    validate: () => (score === null ? { comment: t`Choose a score from 1 to 5` } : {}),
    action: () => rate.mutateAsync({ score: score!, ...(comment.trim() ? { comment } : {}) }),
    mapFieldErrors: () => ({}),
    formError: t`Failed to send your rating`,
  });

  if (ticket.mergedInto || (ticket.status !== 'closed' && ticket.status !== 'resolved')) return null;
  if (ticket.rating) {
    const rated = ticket.rating.score;
    const note = ticket.rating.comment;
    return (
      <p className="notice ticket-rating" role="status">
        {note ? t`You rated this answer ${rated} of 5: “${note}” Thank you.` : t`You rated this answer ${rated} of 5. Thank you.`}
      </p>
    );
  }

  return (
    <Form form={form} className="ticket-rating" aria-label={t`Rate the answer`}>
      <fieldset>
        <legend>{t`How was the answer? (once per ticket)`}</legend>
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
        label={t`Comment (optional)`}
        rows={2}
        maxLength={TICKET_RATING_COMMENT_MAX}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        error={form.errors.comment ?? form.formError}
      />
      <StatusButton busy={rate.isPending} busyLabel={t`Sending…`} className="btn btn-primary btn-small">
        {t`Send rating`}
      </StatusButton>
    </Form>
  );
}
