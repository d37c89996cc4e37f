import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { csvText } from './receipts.service.js';

/** Receipts of ledger entries and the CSV export (docs/product.md#receipts). */
describe.each(enginesFor('database'))('receipts and the ledger export on %s', (engine) => {
  let t: TestApp;
  let admin: { token: string; userId: string };
  let apiKey: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    apiKey = (await call(t, 'POST', '/api/admin/api-keys', { token: admin.token, body: { name: 'receipts' } })).json.key;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  /** A staff adjustment; the customer (and the CSV) reads its note, never the internal reason (decision 0235). */
  async function fund(userId: string, amount: number, customerNote?: string) {
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: admin.token,
      body: { userId, amount, reason: 'test funds', ...(customerNote ? { customerNote } : {}) },
    });
    expect(res.status).toBe(201);
    return res.json.entry as { _id: string };
  }
  async function chargeUser(userId: string, amountCents: number, description: string, metadata?: Record<string, string>) {
    const res = await call(t, 'POST', '/api/v1/charges', {
      token: apiKey,
      headers: { 'idempotency-key': randomUUID() },
      body: { userId, amountCents, description, metadata },
    });
    expect(res.status).toBe(201);
    return res.json.charge as { id: string; ledgerEntryId: string };
  }

  it("answers the receipt of the owner's entry with its charge, and 404 to anyone else", async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    await fund(owner.userId, 10);
    const charge = await chargeUser(owner.userId, 275, 'Premium report', { order: 'A-7' });

    const res = await call(t, 'GET', `/api/credits/ledger/${charge.ledgerEntryId}/receipt`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.json.receipt).toMatchObject({
      entry: {
        _id: charge.ledgerEntryId,
        kind: 'spend',
        amountCents: -275,
        balanceAfterCents: 725,
        reference: `charge:${charge.id}`,
        description: 'Premium report',
      },
      account: { username: owner.username, email: `${owner.username}@example.com` },
      payment: null,
      charge: { id: charge.id, description: 'Premium report', metadata: { order: 'A-7' }, status: 'succeeded' },
    });

    for (const token of [other.token, admin.token]) {
      const refused = await call(t, 'GET', `/api/credits/ledger/${charge.ledgerEntryId}/receipt`, { token });
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.json)).not.toContain('Premium report');
    }
    expect((await call(t, 'GET', `/api/credits/ledger/${randomUUID()}/receipt`, { token: owner.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/credits/ledger/not-a-uuid/receipt', { token: owner.token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/credits/ledger/${charge.ledgerEntryId}/receipt`)).status).toBe(401);
    expect((await call(t, 'GET', `/api/credits/ledger/${charge.ledgerEntryId}/receipt`, { token: apiKey })).status).toBe(401);

    // Its refund has a receipt too, pointing at the same charge.
    const refund = await call(t, 'POST', `/api/v1/charges/${charge.id}/refund`, { token: apiKey });
    const refundReceipt = await call(t, 'GET', `/api/credits/ledger/${refund.json.charge.refundLedgerEntryId}/receipt`, {
      token: owner.token,
    });
    expect(refundReceipt.json.receipt).toMatchObject({
      entry: { kind: 'refund', amountCents: 275, reference: `charge-refund:${charge.id}` },
      charge: { id: charge.id, status: 'refunded' },
    });
  });

  it("writes the CSV for machines in any reader's language: ISO dates, a point before the cents, no grouping", async () => {
    const owner = await registerUser(t);
    expect((await call(t, 'PUT', '/api/users/locale', { token: owner.token, body: { locale: 'de' } })).status).toBe(200);
    // Two adjustments under the two-person threshold, so the balance passes a thousand.
    await fund(owner.userId, 600, 'Gutschrift');
    await fund(owner.userId, 634.5, 'Gutschrift');
    const today = new Date().toISOString().slice(0, 10);
    const res = await fetch(`${t.url}/api/credits/ledger.csv?from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${owner.token}`, 'accept-language': 'de-DE' },
    });
    const lines = (await res.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,entry_id,kind,description,amount,balance_after,reference');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z,[0-9a-f-]{36},adjustment,Gutschrift,634\.50,1234\.50,/);
  });

  it('exports the ledger of a date range as CSV, escaped and safe from formulas', async () => {
    const owner = await registerUser(t);
    const other = await registerUser(t);
    await fund(owner.userId, 50, '=HYPERLINK("http://evil.example","x")');
    await chargeUser(owner.userId, 125, 'Report, "quarterly"\nsecond line is not allowed'.split('\n')[0]!);
    await chargeUser(owner.userId, 100, '@SUM(A1:A2)');
    await chargeUser(owner.userId, 100, '+1 extra');
    await fund(other.userId, 5, 'someone else entirely');

    const today = new Date().toISOString().slice(0, 10);
    const res = await fetch(`${t.url}/api/credits/ledger.csv?from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="olympus-ledger-${today}-to-${today}.csv"`);
    const text = await res.text();
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('date,entry_id,kind,description,amount,balance_after,reference');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(`adjustment,"'=HYPERLINK(""http://evil.example"",""x"")",50.00,50.00,adjustment:`);
    expect(lines[2]).toMatch(/,spend,"Report, ""quarterly""",-1\.25,48\.75,charge:[0-9a-f-]{36}$/);
    expect(lines[3]).toContain(",spend,'@SUM(A1:A2),-1.00,47.75,charge:");
    expect(lines[4]).toContain(",spend,'+1 extra,-1.00,46.75,charge:");
    expect(text).not.toContain('someone else entirely');

    // A range without today holds only the header.
    const past = await call(t, 'GET', '/api/credits/ledger.csv?from=2020-01-01&to=2020-12-31', { token: owner.token });
    expect(past.status).toBe(200);
    const pastText = await (
      await fetch(`${t.url}/api/credits/ledger.csv?from=2020-01-01&to=2020-12-31`, { headers: { authorization: `Bearer ${owner.token}` } })
    ).text();
    expect(pastText).toBe('date,entry_id,kind,description,amount,balance_after,reference\r\n');
    // A range that ends today includes today (the end day is included).
    const upTo = await (
      await fetch(`${t.url}/api/credits/ledger.csv?from=2020-01-01&to=${today}`, { headers: { authorization: `Bearer ${owner.token}` } })
    ).text();
    expect(upTo.trimEnd().split('\r\n')).toHaveLength(5);

    for (const q of ['from=2026-02-30&to=2026-03-01', 'from=2026-03-02&to=2026-03-01', 'from=yesterday&to=2026-03-01', 'to=2026-03-01']) {
      expect((await call(t, 'GET', `/api/credits/ledger.csv?${q}`, { token: owner.token })).status, q).toBe(400);
    }
    expect((await call(t, 'GET', `/api/credits/ledger.csv?from=${today}&to=${today}`)).status).toBe(401);
  });

  it('writes CSV cells by RFC 4180 with formula protection', () => {
    expect(csvText('plain')).toBe('plain');
    expect(csvText('a,b')).toBe('"a,b"');
    expect(csvText('say "hi"')).toBe('"say ""hi"""');
    expect(csvText('=1+1')).toBe("'=1+1");
    expect(csvText('-2')).toBe("'-2");
    expect(csvText('@x')).toBe("'@x");
    expect(csvText('+x')).toBe("'+x");
    expect(csvText('=a,b')).toBe(`"'=a,b"`);
  });
});
