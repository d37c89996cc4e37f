import { t } from '@lingui/core/macro';
import { useId } from 'react';
import { ErrorCode } from '#shared/error-codes';
import { DATA_EXPORT_INTERVAL_HOURS, DATA_EXPORT_TTL_DAYS, type DataExport } from '#shared/schemas/privacy';
import { QueryState } from '#web/components/ui/query-state';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime, formatLocaleSize } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { useDownloadDataExport } from '../api/download-data-export';
import { useLatestDataExport } from '../api/get-data-export';
import { useRequestDataExport } from '../api/request-data-export';

/** "12.3 KB": the size of the ZIP as a person reads it, in the page's language. */
export const formatSize = (bytes: number): string => formatLocaleSize(bytes);

const canRequestAgain = (latest: DataExport | null) =>
  !latest || latest.status === 'failed' || Date.parse(latest.nextRequestAt) <= Date.now();

/**
 * Settings → Privacy → "Download my data" (docs/product.md#privacy): request a copy, follow its
 * progress, download it while it is ready (7 days); one request a day, said before the button is pressed.
 */
export function DataExportPanel() {
  const id = useId();
  useLocale();
  const latest = useLatestDataExport();
  const request = useRequestDataExport();
  const download = useDownloadDataExport();
  const refusedToday = request.error instanceof ApiError && request.error.code === ErrorCode.EXPORT_ALREADY_REQUESTED;

  return (
    <div className="stack privacy-export" aria-labelledby={`${id}-title`} role="group">
      <h3 id={`${id}-title`}>{t`Download my data`}</h3>
      <p className="muted">
        {t`A ZIP file with your account, sessions, ledger (JSON and CSV), payments, exchanges, orders, charges, support tickets with their files, webhook settings and security log. We prepare it in the background and email you when it is ready. You can ask for one copy every ${DATA_EXPORT_INTERVAL_HOURS} hours; each copy can be downloaded for ${DATA_EXPORT_TTL_DAYS} days, then it is deleted.`}
      </p>
      <QueryState
        data={latest.isError ? undefined : latest.data === undefined ? undefined : { latest: latest.data }}
        loading={<p aria-busy="true">{t`Loading…`}</p>}
        error={latest.isError ? errorMessage(latest.error, t`Could not load your data export.`) : null}
        onRetry={() => void latest.refetch()}
      >
        {({ latest: current }) => (
          <div className="stack" style={{ ['--stack-gap' as string]: '12px' }}>
            <div role="status" aria-live="polite" className="privacy-export-state">
              {current?.status === 'pending' && (
                <>
                  <p>
                    <RichText
                      message={t`<0>Preparing your copy…</0> ${current.progress}% done. You can leave this page; we will email you.`}
                      elements={[<strong />]}
                    />
                  </p>
                  <progress max={100} value={current.progress} aria-label={t`Preparing your copy`} className="privacy-progress" />
                </>
              )}
              {current?.status === 'ready' && (
                <p>
                  <RichText
                    message={
                      current.sizeBytes !== null
                        ? t`<0>Your copy is ready</0> (${formatSize(current.sizeBytes)}). Available until ${formatLocaleDateTime(current.expiresAt!)}.`
                        : t`<0>Your copy is ready</0>. Available until ${formatLocaleDateTime(current.expiresAt!)}.`
                    }
                    elements={[<strong />]}
                  />
                </p>
              )}
              {current?.status === 'expired' && (
                <p>{t`Your last copy expired on ${formatLocaleDateTime(current.expiresAt!)} and was deleted.`}</p>
              )}
              {current?.status === 'failed' && (
                <p className="field-error">{t`Your last copy could not be made. Please request it again.`}</p>
              )}
            </div>
            <div className="cluster">
              {current?.status === 'ready' && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={download.isPending}
                  onClick={() => download.mutate(current.exportId)}
                >
                  {download.isPending ? t`Downloading…` : t`Download my data (ZIP)`}
                </button>
              )}
              {canRequestAgain(current) && (
                <button
                  type="button"
                  className={current?.status === 'ready' ? 'btn btn-secondary' : 'btn btn-primary'}
                  disabled={request.isPending}
                  onClick={() => request.mutate()}
                >
                  {request.isPending ? t`Requesting…` : current ? t`Request a new copy` : t`Request a copy of my data`}
                </button>
              )}
            </div>
            {current && !canRequestAgain(current) && (
              <p className="field-note">
                {t`One copy a day: you can request the next one after ${formatLocaleDateTime(current.nextRequestAt)}.`}
              </p>
            )}
          </div>
        )}
      </QueryState>
      {request.isError && (
        <p className="field-error" role="alert">
          {refusedToday
            ? errorMessage(request.error, t`You can ask for one copy of your data a day.`)
            : errorMessage(request.error, t`Could not request your data. Try again.`)}
        </p>
      )}
      {download.isError && (
        <p className="field-error" role="alert">
          {errorMessage(download.error, t`Could not download your data. Try again.`)}
        </p>
      )}
    </div>
  );
}
