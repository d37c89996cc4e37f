import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The scale bench's seeding (docs/performance.md#scale), run here at a tiny size; it lives with the bench, outside src.
// eslint-disable-next-line olympus/no-deep-relative-imports -- no alias reaches bench/
import { ledgerInconsistencies, scalePlan, seedScale } from '../../../bench/scale-seed.mjs';
import { createTestDatabase, enginesFor, type TestDatabase } from '#server/test/test-app.js';

/**
 * The scale bench's data is a ledger the product could have written: every user's running balance
 * follows from the amounts in posting order, never below zero, the user's balance is the last one, and
 * the immutability trigger stays on (an UPDATE is still refused). The check is able to fail: one
 * entry out of line is found.
 */
describe.each(enginesFor('database'))('the scale seeding on %s', (engine) => {
  let test: TestDatabase;
  const q = (text: string, values?: unknown[]) => test.database.pool.query(text, values);

  beforeAll(async () => {
    test = await createTestDatabase(engine);
  }, 120_000);
  afterAll(async () => {
    await test?.dispose();
  });

  it('seeds a consistent ledger and every table in proportion', async () => {
    const { plan } = await seedScale(q, 1200, { prefix: 'tiny' });
    expect(plan).toEqual(scalePlan(1200));
    expect(await ledgerInconsistencies(q, 'tiny')).toEqual({ brokenChain: 0, wrongBalances: 0 });
    const counts = await q(
      `SELECT (SELECT count(*)::int FROM credit_ledger_entries WHERE reference LIKE 'tiny:%') AS entries,
              (SELECT count(*)::int FROM users WHERE username ~ '^tiny[0-9]+$') AS users,
              (SELECT count(*)::int FROM payments WHERE provider_payment_id LIKE 'tiny-%') AS payments,
              (SELECT count(*)::int FROM ticket_messages m JOIN tickets t ON t.id = m.ticket_id JOIN users u ON u.id = t.user_id WHERE u.username LIKE 'tiny%') AS messages`,
    );
    expect(counts.rows[0]).toEqual({
      entries: plan.entries,
      users: plan.users,
      payments: plan.payments,
      messages: plan.tickets * plan.messagesPerTicket,
    });
    await expect(q(`UPDATE credit_ledger_entries SET amount_cents = 1 WHERE reference = 'tiny:1:1'`)).rejects.toThrow();
  }, 120_000);

  it('finds an entry whose running balance does not follow', async () => {
    await seedScale(q, 300, { prefix: 'bent' });
    const [user] = (await q(`SELECT id FROM users WHERE username = 'bent1'`)).rows as Array<{ id: string }>;
    await q(
      `INSERT INTO credit_ledger_entries (user_id, amount_cents, balance_after_cents, kind, reference, description, created_at)
       VALUES ($1, 200, 7, 'adjustment', 'bent:1:100000', 'Out of line', now())`,
      [user!.id],
    );
    expect(await ledgerInconsistencies(q, 'bent')).toEqual({ brokenChain: 1, wrongBalances: 1 });
  }, 120_000);
});
