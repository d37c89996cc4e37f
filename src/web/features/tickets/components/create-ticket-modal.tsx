import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { useState } from 'react';
import { Dialog } from '#web/components/ui/dialog';
import toast from 'react-hot-toast';
import { TICKET_CATEGORIES, TICKET_MESSAGE_MAX, TICKET_PRIORITIES, TICKET_SUBJECT_MAX, type Ticket } from '#shared/schemas/tickets';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useUiStore } from '#web/stores/ui-store';
import { useCreateTicket } from '../api/create-ticket';
import { SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { TicketSuggestions } from '#web/features/help';
import { useLocale } from '#web/features/language';
import { ticketPriorityLabel } from './ticket-status-badge';

const CATEGORY_LABELS: Record<(typeof TICKET_CATEGORIES)[number], MessageDescriptor> = {
  general: msg`General question`,
  account: msg`Account and sign-in`,
  payments: msg`Payments and credits`,
  exchange: msg`Exchange`,
  rewards: msg`Rewards`,
  technical: msg`Something is broken`,
};

/** The ticket-creation modal of docs/product.md#browser-state (open state lives in the UI store). */
export function CreateTicketModal({ isGuest, onCreated }: { isGuest: boolean; onCreated: (ticket: Ticket) => void }) {
  useLocale();
  const open = useUiStore((s) => s.isCreatingTicketModal);
  const setOpen = useUiStore((s) => s.setCreatingTicketModal);
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<(typeof TICKET_CATEGORIES)[number]>('general');
  const [priority, setPriority] = useState<(typeof TICKET_PRIORITIES)[number]>('normal');
  const [message, setMessage] = useState('');
  const createTicket = useCreateTicket(isGuest);
  const saving = createTicket.isPending;
  // The server's field errors go on their fields; any other refusal is said above them.
  const form = useForm<'subject' | 'message', undefined, { ticket: Ticket }>({
    focus: false,
    action: () => createTicket.mutateAsync({ subject, category, priority, message }),
    onSuccess: ({ ticket }) => {
      onCreated(ticket);
      setSubject('');
      setMessage('');
      setOpen(false);
      const number = ticket.number;
      toast.success(t`Ticket #${number} created`);
    },
    formError: (err, fields) =>
      Object.keys(fields).length ? null : err instanceof ApiError ? errorMessage(err, err.message) : t`Failed to create ticket`,
  });

  return (
    <Dialog open={open} aria-labelledby="new-ticket-title" onClose={() => setOpen(false)}>
      <Form form={form}>
        <h2 id="new-ticket-title">{t`New support ticket`}</h2>
        {form.formError && (
          <p className="field-error" role="alert">
            {form.formError}
          </p>
        )}
        <TextField
          id="new-ticket-subject"
          label={t`Subject`}
          error={form.errors.subject}
          value={subject}
          maxLength={TICKET_SUBJECT_MAX}
          onChange={(e) => setSubject(e.target.value)}
        />
        <TicketSuggestions subject={subject} />
        <div className="ticket-form-row">
          <SelectField
            id="new-ticket-category"
            label={t`Category`}
            value={category}
            onChange={(e) => setCategory(e.target.value as typeof category)}
            options={TICKET_CATEGORIES.map((c) => ({ value: c, label: i18n._(CATEGORY_LABELS[c]) }))}
          />
          <SelectField
            id="new-ticket-priority"
            label={t`Priority`}
            value={priority}
            onChange={(e) => setPriority(e.target.value as typeof priority)}
            options={TICKET_PRIORITIES.map((p) => ({ value: p, label: ticketPriorityLabel(p) }))}
          />
        </div>
        <TextareaField
          id="new-ticket-message"
          label={t`How can we help?`}
          error={form.errors.message}
          rows={6}
          maxLength={TICKET_MESSAGE_MAX}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <div className="actions">
          <StatusButton busy={saving} busyLabel={t`Creating…`} className="btn btn-primary">
            {t`Create ticket`}
          </StatusButton>
          <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
            {t`Cancel`}
          </button>
        </div>
      </Form>
    </Dialog>
  );
}
