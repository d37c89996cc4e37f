import { t } from '@lingui/core/macro';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { useLocale } from '#web/features/language';
import { useHelpSuggestions } from '../api/get-help-suggestions';
import { useRecordDeflection } from '../api/record-deflection';
import { helpArticlePath } from '../help-paths';

/**
 * Beside a ticket's subject: up to three articles that may answer it (docs/decisions/0290). They open in
 * a new tab so the ticket being written stays as it is; opening one is counted, and it counts as a
 * ticket avoided when no ticket follows.
 */
export function TicketSuggestions({ subject }: { subject: string }) {
  useLocale();
  const text = useDebouncedValue(subject, 300);
  const suggestions = useHelpSuggestions(text);
  const record = useRecordDeflection();
  const articles = suggestions.data?.articles ?? [];

  return (
    <div className="help-ticket-suggestions" aria-live="polite">
      {articles.length > 0 && (
        <section aria-labelledby="ticket-suggestions-title" className="card">
          <h3 id="ticket-suggestions-title">{t`These articles may answer your question`}</h3>
          <ul>
            {articles.map((a) => (
              <li key={a.slug}>
                <a href={helpArticlePath(a.slug)} target="_blank" rel="noopener" onClick={() => record.mutate(a.slug)}>
                  {a.title}
                  <span className="visually-hidden"> {t`(opens in a new tab)`}</span>
                </a>
                <span className="muted"> · {a.category}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
