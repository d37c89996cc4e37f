import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { useLocale } from '#web/features/language';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { errorMessage } from '#web/lib/api-client';
import { useDownloadLedgerCsv } from '../api/download-ledger-csv';

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** Two dates and a Download button: my ledger for those days (both included, UTC) as a CSV file. */
export function LedgerExportForm() {
  useLocale();
  const ids = useId();
  const today = new Date();
  const monthAgo = new Date(today.getTime() - 30 * 24 * 60 * 60 * 1000);
  const [from, setFrom] = useState(isoDay(monthAgo));
  const [to, setTo] = useState(isoDay(today));
  const download = useDownloadLedgerCsv();
  const rangeError = from && to && from > to ? t`The end date must not be before the start date` : null;

  const form = useForm({
    focus: false,
    action: () => {
      if (rangeError || !from || !to) return;
      download.mutate({ from, to });
    },
  });

  // The browser's own check of the two required dates stays (noValidate={false}), as before.
  return (
    <Form form={form} noValidate={false} className="ledger-export no-print" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`}>{t`Export as CSV`}</h3>
      <div className="ledger-export-fields">
        <TextField label={t`From`} type="date" value={from} max={to || undefined} onChange={(e) => setFrom(e.target.value)} required />
        <TextField
          label={t`To`}
          type="date"
          value={to}
          min={from || undefined}
          onChange={(e) => setTo(e.target.value)}
          required
          error={rangeError}
        />
        <StatusButton busy={download.isPending} busyLabel={t`Preparing…`} className="btn btn-ghost" disabled={Boolean(rangeError)}>
          {t`Download CSV`}
        </StatusButton>
      </div>
      <p className="field-note">{t`Days in UTC, both included.`}</p>
      {download.isError && (
        <p className="field-error" role="alert">
          {errorMessage(download.error, t`Could not export the ledger`)}
        </p>
      )}
    </Form>
  );
}
