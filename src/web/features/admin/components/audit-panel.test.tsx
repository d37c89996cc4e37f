import { screen, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AuditEntry } from '#shared/schemas/admin';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { AuditPanel } from './audit-panel';

const BOB = '22222222-2222-4222-8222-222222222222';
const ENTRY: AuditEntry = {
  _id: 'a1',
  actor: { _id: '11111111-1111-4111-8111-111111111111', username: 'ana', role: 'admin' },
  action: 'credits.adjusted',
  targetType: 'user',
  targetId: BOB,
  targetLabel: 'bob@example.com',
  summary: 'ana (admin) adjusted the balance of bob@example.com by +5.00 credits: 10.00 → 15.00',
  changes: [{ field: 'balance', before: '10.00 credits', after: '15.00 credits' }],
  before: { balanceCents: 1000 },
  after: { balanceCents: 1500, amountCents: 500, entryId: 'e1' },
  reason: 'Goodwill for a slow deposit',
  createdAt: '2026-01-03T00:00:00.000Z',
};

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/admin/audit', { body: { entries: [ENTRY], page: 1, pageSize: 50, total: 1 } });
});

describe('AuditPanel', () => {
  it('reads as sentences with names and the fields that changed, not raw data with ids', async () => {
    render(<AuditPanel />);
    const list = await screen.findByRole('list', { name: 'Audit entries' });
    const entry = within(list).getAllByRole('listitem')[0]!;
    expect(within(entry).getByText('ana (admin) adjusted the balance of bob@example.com by +5.00 credits: 10.00 → 15.00')).toBeTruthy();
    expect(within(entry).getByRole('list', { name: 'Changes' }).textContent).toBe('balance: 10.00 credits → 15.00 credits');
    expect(within(entry).getByText('Goodwill for a slow deposit')).toBeTruthy();
    expect(list.textContent).not.toContain(BOB);
    expect(list.textContent).not.toContain('balanceCents');
  });
});
