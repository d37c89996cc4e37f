import { i18n } from '@lingui/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '#web/lib/api-client';
import { QueryTable, type TableQuery } from './query-table';

// The shared components translate their own words; English, as the app starts (decision 0326).
i18n.loadAndActivate({ locale: 'en', messages: {} });

type Rows = { items: { id: string; name: string }[] };

function table(query: TableQuery<Rows>) {
  return (
    <QueryTable
      query={query}
      label="Things"
      rows={(data) => data.items}
      columns={<th scope="col">Name</th>}
      row={(item) => (
        <tr key={item.id}>
          <td>{item.name}</td>
        </tr>
      )}
      loading="Loading things…"
      empty="No things yet."
      failed="Could not load the things"
    />
  );
}

describe('QueryTable', () => {
  afterEach(cleanup);

  it('shows loading, then the rows in a named table', () => {
    const { rerender } = render(table({ data: undefined, error: null, refetch: () => undefined }));
    expect(screen.getByText('Loading things…').getAttribute('aria-busy')).toBe('true');
    rerender(table({ data: { items: [{ id: '1', name: 'Ada' }] }, error: null, refetch: () => undefined }));
    expect(screen.getByRole('table', { name: 'Things' }).textContent).toContain('Ada');
  });

  it('says so when there are no rows, instead of an empty table', () => {
    render(table({ data: { items: [] }, error: null, refetch: () => undefined }));
    expect(screen.getByText('No things yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('words a failure (the server, or the fallback) and tries again on request', () => {
    let retried = 0;
    const { rerender } = render(table({ data: undefined, error: new ApiError(403, 'Staff only', 'FORBIDDEN'), refetch: () => retried++ }));
    expect(screen.getByRole('alert').textContent).toContain('Staff only');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);
    rerender(table({ data: undefined, error: new Error('boom'), refetch: () => undefined }));
    expect(screen.getByRole('alert').textContent).toContain('Could not load the things');
    expect(screen.queryByText('Loading things…')).toBeNull();
  });
});
