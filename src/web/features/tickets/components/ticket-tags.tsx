import { t } from '@lingui/core/macro';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { parseTagInput, ticketTagsSchema } from '#shared/schemas/support-rules';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { useLocale } from '#web/features/language';
import { useSetTicketTags } from '../api/set-ticket-tags';

/** A ticket's tags for staff (decision 0294): shown as chips, edited as words separated by spaces or commas. */
export function TicketTags({ ticketId, tags }: { ticketId: string; tags: string[] }) {
  useLocale();
  const save = useSetTicketTags(ticketId);
  const [text, setText] = useState<string | null>(null);
  // The first problem of the list shows under the field, and so does why the server refused it.
  const form = useForm<'tags'>({
    focus: false,
    validate: () => {
      const parsed = ticketTagsSchema.safeParse(parseTagInput(text ?? ''));
      return parsed.success ? {} : { tags: parsed.error.issues[0]?.message ?? t`Check the tags` };
    },
    action: () => save.mutateAsync(ticketTagsSchema.parse(parseTagInput(text ?? ''))),
    onSuccess: () => {
      setText(null);
      toast.success(t`Tags saved`);
    },
    mapFieldErrors: () => ({}),
    formError: t`Failed to save tags`,
  });

  return (
    <div className="ticket-tags">
      <TagList tags={tags} />
      {text === null ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setText(tags.join(' '))}>
          {t`Edit tags`}
        </button>
      ) : (
        <Form form={form} className="inline-field ticket-tags-form">
          <TextField
            label={t`Tags`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={form.errors.tags ?? form.formError}
            note={t`Separate with spaces or commas`}
          />
          <StatusButton busy={save.isPending} className="btn btn-secondary btn-small">
            {t`Save tags`}
          </StatusButton>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setText(null)}>
            {t`Cancel`}
          </button>
        </Form>
      )}
    </div>
  );
}

/** The tags as chips; spans, so they may sit inside a queue row's button. */
export function TagList({ tags }: { tags: string[] | undefined }) {
  useLocale();
  if (!tags || tags.length === 0) return <span className="muted ticket-tag-none">{t`No tags`}</span>;
  return (
    <span className="ticket-tag-list">
      <span className="visually-hidden">{t`Tags:`} </span>
      {tags.map((tag) => (
        <span key={tag} className="ticket-tag">
          {tag}
        </span>
      ))}
    </span>
  );
}
