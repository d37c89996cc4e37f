import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { User } from '#shared/schemas/auth';
import type { EstimateResponse, Exchange } from '#shared/schemas/exchange';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi, type RecordedRequest } from '#web/test/scripted-api-server';
import { initialSessionState, useSessionStore } from '#web/features/auth';
import ExchangePanel from './exchange-panel';
import { formatClock } from '#web/lib/format';

const USER = { _id: 'u1', username: 'ada', email: 'ada@example.com', emailVerified: true, role: 'user', credits: 0 } as unknown as User;
const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const MINUTE = 60_000;

const CURRENCIES = [
  { ticker: 'btc', name: 'Bitcoin', image: null, hasExternalId: false, externalIdName: null, network: 'btc' },
  { ticker: 'eth', name: 'Ethereum', image: null, hasExternalId: false, externalIdName: null, network: 'eth' },
];

function estimate(
  query: URLSearchParams,
  rateId = 'rate-1',
  validUntil = new Date(Date.now() + 5 * MINUTE).toISOString(),
): EstimateResponse {
  const fixed = query.get('rateType') === 'fixed';
  return {
    from: 'btc',
    to: 'eth',
    amount: Number(query.get('amount')),
    estimatedAmount: fixed ? '0.20109375' : '0.203125',
    minAmount: '0.001',
    maxAmount: '2',
    rateType: fixed ? 'fixed' : 'floating',
    rateId: fixed ? rateId : null,
    validUntil: fixed ? validUntil : null,
    usdValue: 650,
    reward: { percent: 0.5, amount: 3.25 },
    transactionSpeedForecast: '10-60',
    warningMessage: null,
  };
}

function exchangeFrom(body: Record<string, unknown>, validUntil: string | null): Exchange {
  return {
    _id: 'ex-1',
    providerExchangeId: 'p1',
    status: 'waiting',
    from: 'btc',
    to: 'eth',
    amount: String(body.amount),
    expectedAmount: '0.20109375',
    amountSent: null,
    amountReceived: null,
    payinAddress: 'bc1qdeposit',
    payinExtraId: null,
    payoutAddress: String(body.payoutAddress),
    payoutExtraId: null,
    refundAddress: (body.refundAddress as string | undefined) ?? null,
    refundExtraId: null,
    rateType: body.rateType === 'fixed' ? 'fixed' : 'floating',
    rateId: (body.rateId as string | undefined) ?? null,
    rateValidUntil: validUntil,
    payinHash: null,
    payoutHash: null,
    usdValue: 650,
    rewardAmount: 3.25,
    rewardMode: 'direct',
    rewardCredited: false,
    claimDeadline: null,
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    finishedAt: null,
  };
}

const query = (req: RecordedRequest) => new URLSearchParams(req.query);

const server = setupScriptedApi();
beforeEach(() => {
  useSessionStore.setState({ ...initialSessionState, sessionChecked: true, isAuthenticated: true, userId: USER._id });
  server.on('GET', '/api/exchange/currencies', { body: { currencies: CURRENCIES } });
  server.on('GET', '/api/exchange/exchanges', { body: { exchanges: [], page: 1, pageSize: 10, total: 0 } });
  server.on('GET', '/api/exchange/range', (req) => ({
    body: { from: 'btc', to: 'eth', rateType: query(req).get('rateType'), minAmount: '0.001', maxAmount: '2' },
  }));
});
afterEach(() => {
  useSessionStore.setState(initialSessionState);
});

function show() {
  return render(
    <MemoryRouter>
      <ExchangePanel />
    </MemoryRouter>,
  );
}

const creates = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/api/exchange/exchanges');

describe('the exchange form: limits, fixed or floating rate, refund address', () => {
  it('shows the limits before an amount is typed and refuses one below the minimum without asking the server', async () => {
    server.on('GET', '/api/exchange/estimate', (req) => ({ body: estimate(query(req)) }));
    show();
    await waitFor(() => expect(screen.getByTestId('exchange-range').textContent).toBe('Min 0.001 BTC · Max 2 BTC'));
    expect((await screen.findByTestId('estimate-rate', {}, { timeout: 3000 })).textContent).toMatch('Floating rate, may change');

    fireEvent.change(screen.getByLabelText('Amount to send (BTC)'), { target: { value: '0.0005' } });
    expect(screen.getByText('The amount must be between 0.001 BTC and 2 BTC for this pair')).toBeTruthy();
    expect(screen.getByLabelText('Amount to send (BTC)').getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(screen.getByLabelText('Your ETH payout address'), { target: { value: ETH_ADDRESS } });
    fireEvent.click(screen.getByRole('button', { name: 'Exchange now' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(creates()).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Amount to send (BTC)'), { target: { value: '3' } });
    expect(screen.getByText('The amount must be between 0.001 BTC and 2 BTC for this pair')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Amount to send (BTC)'), { target: { value: '1' } });
    expect(screen.queryByText('The amount must be between 0.001 BTC and 2 BTC for this pair')).toBeNull();
  });

  it('creates a fixed-rate exchange at the quote on screen, with its expiry, countdown and refund address', async () => {
    const validUntil = new Date(Date.now() + 5 * MINUTE).toISOString();
    server.on('GET', '/api/exchange/estimate', (req) => ({ body: estimate(query(req), 'rate-1', validUntil) }));
    server.on('POST', '/api/exchange/exchanges', (req) => {
      const exchange = exchangeFrom(req.body as Record<string, unknown>, validUntil);
      return { status: 201, body: { success: true, data: { exchange, rewards: { potentialAmount: 3.25, percent: 0.5, mode: 'direct' } } } };
    });
    server.on('GET', '/api/exchange/exchanges/ex-1', () => ({
      body: { exchange: exchangeFrom(creates()[0]!.body as Record<string, unknown>, validUntil) },
    }));
    show();
    await screen.findByTestId('exchange-range');
    fireEvent.click(screen.getByRole('radio', { name: /Fixed rate/ }));
    const rate = await screen.findByText(`Fixed rate, valid until ${formatClock(Date.parse(validUntil))}`, {}, { timeout: 3000 });
    expect(rate.closest('[data-testid="estimate-rate"]')!.textContent).toMatch(/\((4:5\d|5:00) left\)/);
    expect(screen.getByTestId('estimate-amount').textContent).toMatch('0.20109375 ETH');

    fireEvent.change(screen.getByLabelText('Your ETH payout address'), { target: { value: ETH_ADDRESS } });
    fireEvent.click(screen.getByText('Refund address (optional)'));
    fireEvent.change(screen.getByLabelText('Your BTC refund address'), { target: { value: BTC_ADDRESS } });
    fireEvent.click(screen.getByRole('button', { name: 'Exchange now' }));

    await waitFor(() => expect(creates()).toHaveLength(1));
    expect(creates()[0]!.body).toEqual({
      from: 'btc',
      to: 'eth',
      amount: 0.01,
      payoutAddress: ETH_ADDRESS,
      refundAddress: BTC_ADDRESS,
      rateType: 'fixed',
      rateId: 'rate-1',
    });
    expect((await screen.findByTestId('exchange-rate-type')).textContent).toMatch(
      `Fixed rate, deposit before ${formatClock(Date.parse(validUntil))}`,
    );
    expect(screen.getByTestId('exchange-refund-address').textContent).toMatch(BTC_ADDRESS);
  });

  it('shows the new quote when the server refuses an expired one, and creates with the new one', async () => {
    const first = new Date(Date.now() + 5 * MINUTE).toISOString();
    const second = new Date(Date.now() + 10 * MINUTE).toISOString();
    server.on('GET', '/api/exchange/estimate', (req) => ({ body: estimate(query(req), 'rate-old', first) }));
    let refused = false;
    server.on('POST', '/api/exchange/exchanges', (req) => {
      const body = req.body as Record<string, unknown>;
      if (!refused) {
        refused = true;
        const message =
          'That fixed rate has expired. New quote: 0.2 ETH, fixed rate valid until 12:00:00 UTC. Check it and create the exchange again.';
        const quote = {
          ...estimate(new URLSearchParams({ rateType: 'fixed', amount: '0.01' }), 'rate-new', second),
          estimatedAmount: '0.2',
        };
        return { status: 422, body: { error: message, code: 'FIXED_RATE_EXPIRED', details: { fields: { rateId: message }, quote } } };
      }
      return {
        status: 201,
        body: {
          success: true,
          data: { exchange: exchangeFrom(body, second), rewards: { potentialAmount: 3.25, percent: 0.5, mode: 'direct' } },
        },
      };
    });
    server.on('GET', '/api/exchange/exchanges/ex-1', {
      body: { exchange: exchangeFrom({ amount: 0.01, payoutAddress: ETH_ADDRESS, rateType: 'fixed', rateId: 'rate-new' }, second) },
    });
    show();
    await screen.findByTestId('exchange-range');
    fireEvent.click(screen.getByRole('radio', { name: /Fixed rate/ }));
    await screen.findByText(`Fixed rate, valid until ${formatClock(Date.parse(first))}`, {}, { timeout: 3000 });
    fireEvent.change(screen.getByLabelText('Your ETH payout address'), { target: { value: ETH_ADDRESS } });
    fireEvent.click(screen.getByRole('button', { name: 'Exchange now' }));

    expect((await screen.findByRole('alert')).textContent).toMatch(/^That fixed rate has expired\. New quote: 0\.2 ETH/);
    expect(await screen.findByText(`Fixed rate, valid until ${formatClock(Date.parse(second))}`)).toBeTruthy();
    expect(screen.getByTestId('estimate-amount').textContent).toMatch('0.2 ETH');
    fireEvent.click(screen.getByRole('button', { name: 'Exchange now' }));
    await waitFor(() => expect(creates()).toHaveLength(2));
    expect(creates()[1]!.body).toMatchObject({ rateType: 'fixed', rateId: 'rate-new' });
    expect((await screen.findByTestId('exchange-rate-type')).textContent).toMatch(
      `Fixed rate, deposit before ${formatClock(Date.parse(second))}`,
    );
  });

  it('opens the exchange a notification links to (?exchange=<id>), and goes back to the form from it', async () => {
    const linked = { ...exchangeFrom({ amount: 0.5, payoutAddress: ETH_ADDRESS }, null), _id: 'ex-9', status: 'finished' as const };
    server.on('GET', '/api/exchange/exchanges/ex-9', { body: { exchange: linked } });
    render(
      <MemoryRouter initialEntries={['/dashboard?exchange=ex-9#exchange']}>
        <ExchangePanel />
      </MemoryRouter>,
    );
    expect((await screen.findByTestId('exchange-status')).textContent).toBe(
      'Exchange finished! The coins are on their way to your address.',
    );
    expect(screen.getByText('ex-9')).toBeTruthy();
  });
});
