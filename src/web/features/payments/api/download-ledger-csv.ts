import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';

export interface LedgerCsvRange {
  from: string;
  to: string;
}

/** GET /api/credits/ledger.csv?from&to: my ledger for those days (both included, UTC) as CSV text. */
export async function fetchLedgerCsv({ from, to }: LedgerCsvRange): Promise<{ csv: string; filename: string }> {
  const query = new URLSearchParams({ from, to });
  const csv = await api.get<string>(`/api/credits/ledger.csv?${query}`);
  return { csv: typeof csv === 'string' ? csv : '', filename: `olympus-ledger-${from}-to-${to}.csv` };
}

/** Saves the file through a temporary link (the call needs the Authorization header, so no plain link). */
function save({ csv, filename }: { csv: string; filename: string }) {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Downloads the CSV; reads nothing into the cache (a file, not server state shown on screen). */
export function useDownloadLedgerCsv() {
  return useMutation({ mutationFn: fetchLedgerCsv, onSuccess: save });
}
