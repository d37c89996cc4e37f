import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { TICKET_CATEGORIES, TICKET_MESSAGE_MAX, TICKET_PRIORITIES, TICKET_SUBJECT_MAX, type Ticket } from '#shared/schemas/tickets';
import { ApiError } from '#web/lib/api-client';
import { useUiStore } from '#web/stores/ui-store';
import { useCreateTicket } from '../api/create-ticket';
import { SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { TicketSuggestions } from '#web/features/help';

const CATEGORY_LABELS: Record<(typeof TICKET_CATEGORIES)[number], string> = {
  general: 'General question',
  account: 'Account and sign-in',
  payments: 'Payments and credits',
  exchange: 'Exchange',
  rewards: 'Rewards',
  technical: 'Something is broken',
};

/** The ticket-creation modal of docs/product.md#browser-state (open state lives in the UI store). */
export function CreateTicketModal({ isGuest, onCreated }: { isGuest: boolean; onCreated: (ticket: Ticket) => void }) {
  const open = useUiStore((s) => s.isCreatingTicketModal);
  const setOpen = useUiStore((s) => s.setCreatingTicketModal);
  const dialog = useRef<HTMLDialogElement>(null);
  const [subject, setSubject] = useState('');
  const [category, setCategory] = useState<(typeof TICKET_CATEGORIES)[number]>('general');
  const [priority, setPriority] = useState<(typeof TICKET_PRIORITIES)[number]>('normal');
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const createTicket = useCreateTicket(isGuest);
  const saving = createTicket.isPending;

  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (open && !el.open) el.showModal?.();
    if (!open && el.open) el.close?.();
  }, [open]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setErrors({});
    try {
      const { ticket } = await createTicket.mutateAsync({ subject, category, priority, message });
      onCreated(ticket);
      setSubject('');
      setMessage('');
      setOpen(false);
      toast.success(`Ticket #${ticket.number} created`);
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors({ ...err.fieldErrors, ...(Object.keys(err.fieldErrors).length ? {} : { form: err.message }) });
      } else {
        setErrors({ form: 'Failed to create ticket' });
      }
    }
  }

  return (
    <dialog ref={dialog} className="modal" aria-labelledby="new-ticket-title" onClose={() => setOpen(false)}>
      <form onSubmit={submit} noValidate>
        <h2 id="new-ticket-title">New support ticket</h2>
        {errors.form && (
          <p className="field-error" role="alert">
            {errors.form}
          </p>
        )}
        <TextField
          id="new-ticket-subject"
          label="Subject"
          error={errors.subject}
          value={subject}
          maxLength={TICKET_SUBJECT_MAX}
          onChange={(e) => setSubject(e.target.value)}
        />
        <TicketSuggestions subject={subject} />
        <div className="ticket-form-row">
          <SelectField
            id="new-ticket-category"
            label="Category"
            value={category}
            onChange={(e) => setCategory(e.target.value as typeof category)}
            options={TICKET_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }))}
          />
          <SelectField
            id="new-ticket-priority"
            label="Priority"
            value={priority}
            onChange={(e) => setPriority(e.target.value as typeof priority)}
            options={TICKET_PRIORITIES.map((p) => ({ value: p, label: p[0]!.toUpperCase() + p.slice(1) }))}
          />
        </div>
        <TextareaField
          id="new-ticket-message"
          label="How can we help?"
          error={errors.message}
          rows={6}
          maxLength={TICKET_MESSAGE_MAX}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={saving}>
            {saving ? 'Creating…' : 'Create ticket'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
