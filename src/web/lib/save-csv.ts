/**
 * Saves CSV text as a file through a temporary link: the calls that fetch it need the Authorization
 * header, so a plain link cannot.
 */
export function saveCsv({ csv, filename }: { csv: string; filename: string }): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
