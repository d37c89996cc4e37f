import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { parseTagInput, ticketTagsSchema } from '#shared/schemas/support-rules';
import { TextField } from '#web/components/ui/forms';
import { errorMessage } from '#web/lib/api-client';
import { useSetTicketTags } from '../api/set-ticket-tags';

/** A ticket's tags for staff (decision 0294): shown as chips, edited as words separated by spaces or commas. */
export function TicketTags({ ticketId, tags }: { ticketId: string; tags: string[] }) {
  const save = useSetTicketTags(ticketId);
  const [text, setText] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ticketTagsSchema.safeParse(parseTagInput(text ?? ''));
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the tags');
      return;
    }
    setError(undefined);
    try {
      await save.mutateAsync(parsed.data);
      setText(null);
      toast.success('Tags saved');
    } catch (err) {
      setError(errorMessage(err, 'Failed to save tags'));
    }
  }

  return (
    <div className="ticket-tags">
      <TagList tags={tags} />
      {text === null ? (
        <button type="button" className="btn btn-ghost btn-small" onClick={() => setText(tags.join(' '))}>
          Edit tags
        </button>
      ) : (
        <form className="inline-field ticket-tags-form" onSubmit={submit} noValidate>
          <TextField
            label="Tags"
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={error}
            note="Separate with spaces or commas"
          />
          <button type="submit" className="btn btn-secondary btn-small" disabled={save.isPending}>
            Save tags
          </button>
          <button type="button" className="btn btn-ghost btn-small" onClick={() => setText(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}

/** The tags as chips; spans, so they may sit inside a queue row's button. */
export function TagList({ tags }: { tags: string[] | undefined }) {
  if (!tags || tags.length === 0) return <span className="muted ticket-tag-none">No tags</span>;
  return (
    <span className="ticket-tag-list">
      <span className="visually-hidden">Tags: </span>
      {tags.map((t) => (
        <span key={t} className="ticket-tag">
          {t}
        </span>
      ))}
    </span>
  );
}
