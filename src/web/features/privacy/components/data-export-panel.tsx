import { useId } from 'react';
import { ErrorCode } from '#shared/error-codes';
import { DATA_EXPORT_INTERVAL_HOURS, DATA_EXPORT_TTL_DAYS, type DataExport } from '#shared/schemas/privacy';
import { QueryState } from '#web/components/ui/query-state';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatDateTime } from '#web/lib/format';
import { useDownloadDataExport } from '../api/download-data-export';
import { useLatestDataExport } from '../api/get-data-export';
import { useRequestDataExport } from '../api/request-data-export';

/** "12.3 KB": the size of the ZIP as a person reads it. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const canRequestAgain = (latest: DataExport | null) =>
  !latest || latest.status === 'failed' || Date.parse(latest.nextRequestAt) <= Date.now();

/**
 * Settings → Privacy → "Download my data" (docs/product.md#privacy): request a copy, follow its
 * progress, download it while it is ready (7 days); one request a day, said before the button is pressed.
 */
export function DataExportPanel() {
  const id = useId();
  const latest = useLatestDataExport();
  const request = useRequestDataExport();
  const download = useDownloadDataExport();
  const refusedToday = request.error instanceof ApiError && request.error.code === ErrorCode.EXPORT_ALREADY_REQUESTED;

  return (
    <div className="stack privacy-export" aria-labelledby={`${id}-title`} role="group">
      <h3 id={`${id}-title`}>Download my data</h3>
      <p className="muted">
        A ZIP file with your account, sessions, ledger (JSON and CSV), payments, exchanges, orders, charges, support tickets with their
        files, webhook settings and security log. We prepare it in the background and email you when it is ready. You can ask for one copy
        every {DATA_EXPORT_INTERVAL_HOURS} hours; each copy can be downloaded for {DATA_EXPORT_TTL_DAYS} days, then it is deleted.
      </p>
      <QueryState
        data={latest.isError ? undefined : latest.data === undefined ? undefined : { latest: latest.data }}
        loading={<p aria-busy="true">Loading…</p>}
        error={latest.isError ? errorMessage(latest.error, 'Could not load your data export.') : null}
        onRetry={() => void latest.refetch()}
      >
        {({ latest: current }) => (
          <div className="stack" style={{ ['--stack-gap' as string]: '12px' }}>
            <div role="status" aria-live="polite" className="privacy-export-state">
              {current?.status === 'pending' && (
                <>
                  <p>
                    <strong>Preparing your copy…</strong> {current.progress}% done. You can leave this page; we will email you.
                  </p>
                  <progress max={100} value={current.progress} aria-label="Preparing your copy" className="privacy-progress" />
                </>
              )}
              {current?.status === 'ready' && (
                <p>
                  <strong>Your copy is ready</strong>
                  {current.sizeBytes !== null ? ` (${formatSize(current.sizeBytes)})` : ''}. Available until{' '}
                  {formatDateTime(current.expiresAt!)}.
                </p>
              )}
              {current?.status === 'expired' && <p>Your last copy expired on {formatDateTime(current.expiresAt!)} and was deleted.</p>}
              {current?.status === 'failed' && <p className="field-error">Your last copy could not be made. Please request it again.</p>}
            </div>
            <div className="cluster">
              {current?.status === 'ready' && (
                <button
                  type="button"
                  className="btn btn-primary"
                  disabled={download.isPending}
                  onClick={() => download.mutate(current.exportId)}
                >
                  {download.isPending ? 'Downloading…' : 'Download my data (ZIP)'}
                </button>
              )}
              {canRequestAgain(current) && (
                <button
                  type="button"
                  className={current?.status === 'ready' ? 'btn btn-secondary' : 'btn btn-primary'}
                  disabled={request.isPending}
                  onClick={() => request.mutate()}
                >
                  {request.isPending ? 'Requesting…' : current ? 'Request a new copy' : 'Request a copy of my data'}
                </button>
              )}
            </div>
            {current && !canRequestAgain(current) && (
              <p className="field-note">One copy a day: you can request the next one after {formatDateTime(current.nextRequestAt)}.</p>
            )}
          </div>
        )}
      </QueryState>
      {request.isError && (
        <p className="field-error" role="alert">
          {refusedToday
            ? errorMessage(request.error, 'You can ask for one copy of your data a day.')
            : errorMessage(request.error, 'Could not request your data. Try again.')}
        </p>
      )}
      {download.isError && (
        <p className="field-error" role="alert">
          {errorMessage(download.error, 'Could not download your data. Try again.')}
        </p>
      )}
    </div>
  );
}
