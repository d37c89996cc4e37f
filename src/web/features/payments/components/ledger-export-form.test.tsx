import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { LedgerExportForm } from './ledger-export-form';

const server = setupScriptedApi();

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  vi.restoreAllMocks();
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('LedgerExportForm', () => {
  it('downloads the CSV of the chosen days as a file', async () => {
    server.on('GET', '/api/credits/ledger.csv', { body: 'date,entry_id,kind,description,amount,balance_after,reference\r\n' });
    const blobs: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:test';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderWithQuery(<LedgerExportForm />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toEqual(['olympus-ledger-2026-11-01-to-2026-11-25.csv']));
    expect(await blobs[0]!.text()).toContain('date,entry_id,kind');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/credits/ledger.csv']);
  });

  it('refuses an end date before the start date without calling the server', () => {
    renderWithQuery(<LedgerExportForm />);
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-11-25' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-11-01' } });
    expect(screen.getByText('The end date must not be before the start date')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Download CSV' }) as HTMLButtonElement).disabled).toBe(true);
    expect(server.requests).toEqual([]);
  });
});
