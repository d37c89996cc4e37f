import { t } from '@lingui/core/macro';
import { useState } from 'react';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TYPES,
  TICKET_MESSAGE_MAX,
  type CannedReply,
  type Ticket,
  type TicketAttachment,
} from '#shared/schemas/tickets';
import { formatLocaleDateTime, pageLocale } from '#web/lib/format';
import { LOCALE_NAMES, RichText, useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { TicketStatusBadge, ticketPriorityLabel } from './ticket-status-badge';
import { CheckboxField, TextareaField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { categoryTag, ticketEventText } from './labels';

/**
 * A write the thread starts, from the parent's mutation hook (docs/decisions/0225): the thread awaits
 * it for its error and shows its isPending.
 */
interface ThreadWrite<T> {
  mutateAsync: (input: T) => Promise<unknown>;
  isPending: boolean;
}

interface TicketThreadProps {
  ticket: Ticket;
  /** Who is reading: the requester's own messages are "You", staff answers are named. */
  viewer: 'requester' | 'staff';
  reply: ThreadWrite<{ message: string; internal: boolean }>;
  replyDisabledReason?: string | undefined;
  actions?: React.ReactNode;
  /** Staff: the reply box offers "internal note" and inserts canned replies. */
  cannedReplies?: CannedReply[] | undefined;
  allowInternal?: boolean;
  /** Under the thread (the requester's rating form). */
  footer?: React.ReactNode;
  /** Attach a file (as a new message); absent: no file picker. */
  attach?: ThreadWrite<File> | undefined;
  download?: ThreadWrite<TicketAttachment> | undefined;
}

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) {
    const size = (bytes / (1024 * 1024)).toLocaleString(pageLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    return t`${size} MB`;
  }
  if (bytes >= 1024) {
    const size = Math.round(bytes / 1024);
    return t`${size} KB`;
  }
  return t`${bytes} B`;
}

/** A ticket's messages (plain text, never HTML) and the reply box. */
export function TicketThread({
  ticket,
  viewer,
  reply,
  replyDisabledReason,
  actions,
  cannedReplies,
  allowInternal = false,
  footer,
  attach: upload,
  download: fetchFile,
}: TicketThreadProps) {
  useLocale();
  const [message, setMessage] = useState('');
  const [internal, setInternal] = useState(false);
  const uploading = upload?.isPending ?? false;
  const sending = reply.isPending;
  const [fileError, setFileError] = useState<string | null>(null);

  async function attach(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file || !upload) return;
    setFileError(null);
    if (file.size > ATTACHMENT_MAX_BYTES) {
      setFileError(t`Files can be at most 10 MB`);
      input.value = '';
      return;
    }
    try {
      await upload.mutateAsync(file);
    } catch (err) {
      setFileError(errorMessage(err, t`Failed to attach the file`));
    } finally {
      input.value = '';
    }
  }

  async function download(file: TicketAttachment) {
    if (!fetchFile) return;
    setFileError(null);
    try {
      await fetchFile.mutateAsync(file);
    } catch (err) {
      setFileError(errorMessage(err, t`Failed to download the file`));
    }
  }
  // Every message shows under the reply box: an empty reply, or why the server refused it.
  const form = useForm<'message'>({
    focus: false,
    validate: () => (message.trim() ? {} : { message: t`Write a message first` }),
    action: () => reply.mutateAsync({ message, internal }),
    onSuccess: () => {
      setMessage('');
      setInternal(false);
    },
    mapFieldErrors: (fields) => (fields.message ? { message: fields.message } : {}),
    formError: (err, fields) =>
      fields.message ? null : err instanceof ApiError ? errorMessage(err, err.message) : t`Failed to send your reply`,
  });

  const priority = ticketPriorityLabel(ticket.priority);
  const requester = ticket.requester.name;
  const assignee = ticket.assignedTo?.username;
  const mergedNumber = ticket.mergedInto?.number ?? 0;
  return (
    <article className="ticket-thread" aria-labelledby={`ticket-${ticket._id}-title`}>
      <header className="ticket-thread-header">
        <h3 id={`ticket-${ticket._id}-title`}>
          {ticket.subject} <span className="muted">#{ticket.number}</span>
        </h3>
        <div className="ticket-meta">
          <TicketStatusBadge status={ticket.status} reader={viewer} />
          <span className="tag">{categoryTag(ticket.category)}</span>
          <span className="tag">{t`Priority: ${priority}`}</span>
          {viewer === 'staff' && (
            <span className="muted">
              {t`From ${requester}`}
              {assignee ? ` · ${t`assigned to ${assignee}`}` : ` · ${t`unassigned`}`}
            </span>
          )}
          {viewer === 'staff' && ticket.requester.locale && (
            <span className="tag">
              <RichText
                message={t`Language: <0>${LOCALE_NAMES[ticket.requester.locale]}</0>`}
                elements={[<span lang={ticket.requester.locale} />]}
              />
            </span>
          )}
        </div>
        {actions && <div className="ticket-actions">{actions}</div>}
      </header>

      <ol className="ticket-messages" aria-label={t`Messages`} aria-live="polite">
        {(ticket.messages ?? []).map((m) => {
          const mine = m.author === viewer;
          if (m.kind === 'event') {
            return (
              <li key={m._id} className="ticket-event">
                <p>
                  {ticketEventText(m.body)} <time dateTime={m.createdAt}>{formatLocaleDateTime(m.createdAt)}</time>
                </p>
              </li>
            );
          }
          return (
            <li
              key={m._id}
              className={`ticket-message ${m.author === 'staff' ? 'from-staff' : 'from-requester'}${m.kind === 'internal' ? ' internal-note' : ''}`}
            >
              <div className="ticket-message-head">
                <strong>{mine ? t`You` : m.authorName}</strong>
                {m.kind === 'internal' && <span className="tag">{t`Internal note`}</span>}
                <time dateTime={m.createdAt}>{formatLocaleDateTime(m.createdAt)}</time>
              </div>
              <p className="ticket-message-body">{m.body}</p>
              {m.attachments.length > 0 && (
                <ul className="ticket-attachments" aria-label={t`Files`}>
                  {m.attachments.map((file) => (
                    <li key={file._id}>
                      <button type="button" className="btn btn-ghost btn-small" onClick={() => void download(file)} disabled={!fetchFile}>
                        {t`Download ${file.filename}`}
                      </button>{' '}
                      <span className="muted">{formatSize(file.size)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>

      {ticket.mergedInto && (
        <p className="notice" role="status">
          {t`This ticket was merged into #${mergedNumber}.`}
        </p>
      )}
      {footer}

      {replyDisabledReason ? (
        <p className="notice">{replyDisabledReason}</p>
      ) : (
        <Form form={form} className={internal ? 'ticket-reply is-internal' : 'ticket-reply'}>
          {internal && (
            <p className="internal-marker" data-testid="internal-marker">
              {t`Internal note — customers won’t see this`}
            </p>
          )}
          {cannedReplies && cannedReplies.length > 0 && (
            <label className="inline-field">
              <span>{t`Insert canned reply`}</span>
              <select
                value=""
                onChange={(e) => {
                  const chosen = cannedReplies.find((c) => c._id === e.target.value);
                  if (chosen) setMessage((current) => (current.trim() ? `${current.trimEnd()}\n\n${chosen.body}` : chosen.body));
                }}
              >
                <option value="">{t`Choose…`}</option>
                {cannedReplies.map((c) => (
                  <option key={c._id} value={c._id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>
          )}
          <TextareaField
            id={`reply-${ticket._id}`}
            label={internal ? t`Internal note` : t`Your reply`}
            error={form.errors.message ?? form.formError}
            errorAlert
            rows={4}
            maxLength={TICKET_MESSAGE_MAX}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
          />
          {allowInternal && (
            <CheckboxField
              id={`internal-${ticket._id}`}
              className="internal-toggle"
              label={t`Internal note (the requester never sees it)`}
              checked={internal}
              onChange={(e) => setInternal(e.target.checked)}
            />
          )}
          <StatusButton busy={sending} busyLabel={t`Sending…`} className="btn btn-primary">
            {internal ? t`Add note` : t`Send reply`}
          </StatusButton>
          {upload && (
            <div className="field ticket-attach">
              <label htmlFor={`attach-${ticket._id}`}>{t`Attach a file (PNG, JPEG, GIF, WebP or PDF, up to 10 MB)`}</label>
              <input
                id={`attach-${ticket._id}`}
                type="file"
                accept={ATTACHMENT_TYPES.join(',')}
                disabled={uploading}
                onChange={(e) => void attach(e.currentTarget)}
                aria-invalid={fileError ? true : undefined}
                aria-describedby={fileError ? `attach-${ticket._id}-error` : undefined}
              />
              {uploading && <p aria-busy="true">{t`Uploading…`}</p>}
            </div>
          )}
          {fileError && (
            <p id={`attach-${ticket._id}-error`} className="field-error" role="alert">
              {fileError}
            </p>
          )}
        </Form>
      )}
    </article>
  );
}
