import { t } from '@lingui/core/macro';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { CANNED_TITLE_MAX, TICKET_MESSAGE_MAX, type CannedReply } from '#shared/schemas/tickets';
import { TextareaField, TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useLocale } from '#web/features/language';
import { useSaveCannedReply } from '../api/save-canned-reply';

const deleteLabel = (title: string) => t`Delete ${title}`;

/** Staff keep a small list of canned replies (title and text) here; the reply box inserts them. */
export function CannedRepliesPanel({ replies }: { replies: CannedReply[] }) {
  useLocale();
  const save = useSaveCannedReply();
  const [editing, setEditing] = useState<string | null>(null);
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  // The server's field errors go on their fields; any other refusal shows under the text.
  const form = useForm<'title' | 'body'>({
    focus: false,
    action: () => save.mutateAsync({ kind: 'save', id: editing, reply: { title, body } }),
    onSuccess: () => {
      toast.success(t`Canned reply saved`);
      edit(null);
    },
    formError: (err, fields) =>
      Object.keys(fields).length ? null : err instanceof ApiError ? errorMessage(err, err.message) : t`Failed to save`,
  });

  function edit(reply: CannedReply | null) {
    setEditing(reply?._id ?? null);
    setTitle(reply?.title ?? '');
    setBody(reply?.body ?? '');
    form.reset();
  }

  async function remove(id: string) {
    try {
      await save.mutateAsync({ kind: 'delete', id });
      if (editing === id) edit(null);
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to delete`));
    }
  }

  const count = replies.length;
  return (
    <details className="canned-replies">
      <summary>{t`Canned replies (${count})`}</summary>
      <ul aria-label={t`Canned replies`}>
        {replies.map((r) => (
          <li key={r._id}>
            <strong>{r.title}</strong>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => edit(r)}>
              {t`Edit`}
            </button>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => void remove(r._id)} aria-label={deleteLabel(r.title)}>
              {t`Delete`}
            </button>
          </li>
        ))}
      </ul>
      <Form form={form} aria-label={editing ? t`Change canned reply` : t`New canned reply`}>
        <TextField
          label={t`Title`}
          value={title}
          maxLength={CANNED_TITLE_MAX}
          onChange={(e) => setTitle(e.target.value)}
          error={form.errors.title}
        />
        <TextareaField
          label={t`Text`}
          rows={3}
          value={body}
          maxLength={TICKET_MESSAGE_MAX}
          onChange={(e) => setBody(e.target.value)}
          error={form.errors.body ?? form.formError}
        />
        <StatusButton busy={save.isPending} className="btn btn-secondary btn-small">
          {editing ? t`Save changes` : t`Add canned reply`}
        </StatusButton>
        {editing && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => edit(null)}>
            {t`Cancel`}
          </button>
        )}
      </Form>
    </details>
  );
}
