import { expect } from 'vitest';
import { signIpnPayload } from '#server/modules/payments/ipn-signature.js';
import { nowPaymentsClient } from '#server/modules/payments/payments.module.js';
import { PaymentsService } from '#server/modules/payments/payments.service.js';
import { call } from './http.js';
import type { TestApp } from './test-app.js';

/** Shared steps of the payment tests: the sandbox provider, signed IPNs and the ledger as the user sees it. */
export const SANDBOX_IPN_SECRET = 'sandbox-ipn-secret';
export type Json = Record<string, unknown>;

export async function deposit(t: TestApp, token: string, body: Json = { crypto: 'btc', amount: 100 }) {
  const res = await call(t, 'POST', '/api/payments/deposit', { token, body });
  expect(res.status).toBe(201);
  return res.json.payment as Json & { _id: string; providerPaymentId: string };
}

/** Moves the sandbox payment, as the provider would; the sandbox sends the signed IPN unless `ipn: false`. */
export async function control(t: TestApp, providerPaymentId: string, body: Json) {
  const res = await call(t, 'POST', `/sandbox/nowpayments/payments/${providerPaymentId}/status`, { body });
  expect(res.status).toBe(200);
  return res.json as { payment: Json; ipn: { delivered: boolean; statusCode: number | null } | null };
}

/** The provider's payment as NOWPayments would post it, for hand-made IPNs. */
export async function providerPayment(t: TestApp, providerPaymentId: string): Promise<Json> {
  const res = await fetch(`${t.url}/sandbox/nowpayments/v1/payment/${providerPaymentId}`, { headers: { 'x-api-key': 'sandbox-api-key' } });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

export async function postIpn(t: TestApp, body: Json, signature = signIpnPayload(body, SANDBOX_IPN_SECRET)) {
  return call(t, 'POST', '/api/payments/ipn', { body, headers: { 'x-nowpayments-sig': signature } });
}

export async function balance(t: TestApp, user: { token: string; userId: string }): Promise<number> {
  const res = await call(t, 'GET', `/api/users/${user.userId}/credits`, { token: user.token });
  expect(res.status).toBe(200);
  return res.json.credits as number;
}

export async function history(t: TestApp, token: string) {
  const res = await call(t, 'GET', '/api/credits/history?pageSize=100', { token });
  expect(res.status).toBe(200);
  return res.json as { entries: Json[]; balanceCents: number; total: number };
}

/**
 * A second PaymentsService on the test app's database and provider: what another instance's
 * reconciliation job would run (its own in-process locks; the row lock and references are shared).
 */
export function otherInstance(t: TestApp): PaymentsService {
  return new PaymentsService({
    db: t.database.db,
    client: nowPaymentsClient({ config: t.config, selfUrl: () => t.url } as Parameters<typeof nowPaymentsClient>[0]),
    config: t.config.nowpayments,
    limitsUsd: t.config.depositLimitsUsd,
    ipnCallbackUrl: () => `${t.url}/api/payments/ipn`,
    log: t.app.log,
    events: t.app.events,
  });
}
