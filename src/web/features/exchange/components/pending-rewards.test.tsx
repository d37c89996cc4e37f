import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configureApiClient } from '#web/lib/api-client';
import { startScriptedApiServer, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { readClaims, saveClaim } from '../lib/reward-claims';
import { formatDeadline } from '#web/lib/format';
import { PendingRewards } from './pending-rewards';

const HOUR = 3600_000;
let server: ScriptedApiServer;

beforeAll(async () => {
  server = await startScriptedApiServer();
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  localStorage.clear();
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
});
afterEach(() => {
  cleanup();
  configureApiClient(null);
});

function show() {
  return render(
    <MemoryRouter>
      <PendingRewards version={0} />
    </MemoryRouter>,
  );
}

describe("a guest's pending rewards (docs/product.md#guest-claims)", () => {
  it('shows the total and each deadline, and drops expired claims and those the server marks invalid', async () => {
    const now = Date.now();
    const soon = saveClaim(
      'ex-soon',
      { claimCode: 'a', potentialRewards: 1.5, claimDeadline: new Date(now + 10 * HOUR).toISOString() },
      now,
    );
    const later = saveClaim('ex-later', { claimCode: 'b', potentialRewards: 3.25 }, now);
    saveClaim('ex-invalid', { claimCode: 'c', potentialRewards: 7 }, now);
    saveClaim('ex-expired', { claimCode: 'd', potentialRewards: 9 }, now - 721 * HOUR);
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.on('POST', '/api/exchange/guest-rewards-status', async (req) => {
      await answered;
      const claims = (req.body as { claims: { exchangeId: string }[] }).claims;
      return {
        body: {
          success: true,
          data: {
            totalPotentialRewards: 4.75,
            claims: claims.map((c) => ({ exchangeId: c.exchangeId, valid: c.exchangeId !== 'ex-invalid' })),
          },
        },
      };
    });

    show();
    // What this browser keeps, before the server has answered: the expired claim is gone already.
    expect(screen.getByTestId('pending-rewards-total').textContent).toBe('11.75 credits');
    expect(Object.keys(readClaims())).toEqual(['ex-soon', 'ex-later', 'ex-invalid']);
    answer!();

    await waitFor(() => expect(screen.getByTestId('pending-rewards-total').textContent).toBe('4.75 credits'));
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    // Soonest deadline first, each with its amount and deadline.
    expect(items.map((li) => li.textContent)).toEqual([
      `1.50 creditsclaim by ${formatDeadline(soon.claimDeadline)}`,
      `3.25 creditsclaim by ${formatDeadline(later.claimDeadline)}`,
    ]);
    expect(Object.keys(readClaims())).toEqual(['ex-soon', 'ex-later']);
    const [request] = server.requests.filter((r) => r.path === '/api/exchange/guest-rewards-status');
    expect((request!.body as { claims: { exchangeId: string }[] }).claims.map((c) => c.exchangeId)).toEqual([
      'ex-soon',
      'ex-later',
      'ex-invalid',
    ]);
  });

  it('keeps showing the stored claims when the check fails, and shows nothing without claims', async () => {
    saveClaim('ex-1', { claimCode: 'a', potentialRewards: 2 });
    server.on('POST', '/api/exchange/guest-rewards-status', { status: 503, body: { error: 'Down', code: 'UNAVAILABLE' } });
    show();
    await waitFor(() => expect(server.requests).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId('pending-rewards-total').textContent).toBe('2.00 credits');
    expect(Object.keys(readClaims())).toEqual(['ex-1']);
    cleanup();

    localStorage.clear();
    server.reset();
    const { container } = show();
    expect(container.textContent).toBe('');
    expect(server.requests).toHaveLength(0);
  });
});
