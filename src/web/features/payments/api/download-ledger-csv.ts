import { useMutation } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { saveCsv } from '#web/lib/save-csv';

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

/** Downloads the CSV; reads nothing into the cache (a file, not server state shown on screen). */
export function useDownloadLedgerCsv() {
  return useMutation({ mutationFn: fetchLedgerCsv, onSuccess: saveCsv });
}
