import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordAvatarUrl } from '#shared/schemas/sandbox.js';
import { call, registerUser } from '#server/test/http.js';
import { sandboxDiscordAvatar, sandboxDiscordId } from './discord/discord.sandbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

type Json = Record<string, unknown>;

const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

/**
 * The sandbox controls take the ids a newcomer sees (Olympus's own payment and exchange ids) as well
 * as the provider's (decision 0231), and the app says which sandboxes and controls it offers.
 */
describe.each(enginesFor('logic'))('sandbox controls on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("moves a payment by Olympus's own id to finished and credits it once", async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/payments/deposit', { token: user.token, body: { crypto: 'btc', amount: 100 } });
    expect(created.status).toBe(201);
    const payment = created.json.payment as Json & { _id: string; providerPaymentId: string };
    expect(payment._id).not.toBe(payment.providerPaymentId);

    for (const status of ['confirming', 'finished']) {
      const moved = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment._id}/status`, { body: { status } });
      expect(moved.status).toBe(200);
      expect(moved.json.payment).toMatchObject({ payment_id: Number(payment.providerPaymentId), payment_status: status });
      expect(moved.json.ipn).toMatchObject({ delivered: true });
    }
    const status = await waitFor(
      async () =>
        (await call(t, 'GET', `/api/payments/${payment._id}/status`, { token: user.token })).json.paymentData.payment_status as string,
      (s) => s === 'completed',
    );
    expect(status).toBe('completed');
    expect((await call(t, 'GET', `/api/users/${user.userId}/credits`, { token: user.token })).json.credits).toBe(97);

    // Uppercase is the same id; the provider's id still works.
    const again = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment._id.toUpperCase()}/status`, {
      body: { status: 'finished' },
    });
    expect(again.status).toBe(200);
    expect(
      (await call(t, 'POST', `/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, { body: { status: 'finished' } })).status,
    ).toBe(200);
    expect((await call(t, 'GET', `/api/users/${user.userId}/credits`, { token: user.token })).json.credits).toBe(97);

    // A re-deposit too.
    const redeposit = await call(t, 'POST', `/sandbox/nowpayments/payments/${payment._id}/redeposit`, { body: { actually_paid: 0.0001 } });
    expect(redeposit.status).toBe(200);
    expect(redeposit.json.payment).toMatchObject({ parent_payment_id: Number(payment.providerPaymentId) });
  });

  it('answers 404 for an id that is neither', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', '123', 'not-an-id']) {
      const res = await call(t, 'POST', `/sandbox/nowpayments/payments/${id}/status`, { body: { status: 'finished' } });
      expect(res.status).toBe(404);
      expect(res.json.code).toBe('NOT_FOUND');
      expect((await call(t, 'POST', `/sandbox/swap/exchanges/${id}/status`, { body: { status: 'finished' } })).status).toBe(404);
    }
  });

  it("moves an exchange by Olympus's own id to finished and credits its reward", async () => {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/exchange/exchanges', {
      token: user.token,
      body: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS },
    });
    expect(created.status).toBe(201);
    const exchange = created.json.data.exchange as Json & { _id: string; providerExchangeId: string };
    expect(exchange._id).not.toBe(exchange.providerExchangeId);

    const moved = await call(t, 'POST', `/sandbox/swap/exchanges/${exchange._id}/status`, { body: { status: 'finished' } });
    expect(moved.status).toBe(200);
    expect(moved.json.exchange).toMatchObject({ id: exchange.providerExchangeId, status: 'finished' });
    const seen = await waitFor(
      async () => (await call(t, 'GET', `/api/exchange/exchanges/${exchange._id}`, { token: user.token })).json,
      (body) => body.exchange?.status === 'finished' && body.exchange?.rewardCredited === true,
    );
    expect(seen.exchange).toMatchObject({ status: 'finished', rewardCredited: true });
    expect((await call(t, 'GET', `/api/users/${user.userId}/credits`, { token: user.token })).json.credits).toBe(3.25);
  });

  it('serves sandbox Discord avatars itself, at the path the web builds', async () => {
    const url = discordAvatarUrl(sandboxDiscordId('ada'), sandboxDiscordAvatar('ada'), true);
    expect(url).toMatch(/^\/sandbox\/discord\/avatars\/\d+\/[0-9a-f]{32}\.svg$/);
    const res = await fetch(`${t.url}${url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect((await fetch(`${t.url}/sandbox/discord/avatars/123/${'<script>'}.svg`)).status).toBe(404);
  });

  it('says which providers are sandboxed and offers the controls outside production', async () => {
    const res = await call(t, 'GET', '/api/sandbox');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      sandboxes: expect.arrayContaining(['nowpayments', 'swap', 'discord']),
      controls: { payments: true, exchanges: true },
    });
  });
});

describe('sandbox controls in production', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('pglite', { RATE_LIMITS: '0', NODE_ENV: 'production', ALLOW_SANDBOX: '1', JWT_SECRET: 'x'.repeat(40) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('are not offered to the pages, even with sandboxes allowed', async () => {
    const res = await call(t, 'GET', '/api/sandbox');
    expect(res.status).toBe(200);
    expect(res.json.controls).toEqual({ payments: false, exchanges: false });
    expect(res.json.sandboxes).toContain('nowpayments');
  });
});
