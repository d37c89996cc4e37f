import { randomUUID } from 'node:crypto';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { pruneDeadRows } from './prune.js';

/**
 * The retention table (README "How long we keep things", decision 0251), enforced by the prune job:
 * what is past its time goes, and nothing the ledger or an open claim needs is ever pruned.
 */
describe.each(enginesFor('database'))('retention on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  }, 180_000);
  afterAll(async () => t?.close());

  const q = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => (await t.database.db.execute<T>(query)).rows;
  const count = async (query: ReturnType<typeof sql>) => Number((await q<{ n: number }>(query))[0]!.n);

  /** A guest: a session last seen `daysAgo`, and a ticket (with a stored file) last written then. */
  async function guest(daysAgo: number) {
    const guestId = `g_${randomUUID()}`;
    await t.database.db.execute(sql`
      INSERT INTO sessions (guest_id, is_guest, created_at, last_seen_at, expires_at)
      VALUES (${guestId}, true, now() - make_interval(days => ${daysAgo + 1}), now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}) + interval '30 days')`);
    const [ticket] = await q<{ id: string }>(sql`
      INSERT INTO tickets (guest_id, subject, category, created_at, updated_at, last_message_at)
      VALUES (${guestId}, 'Guest question', 'general', now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}))
      RETURNING id`);
    const [message] = await q<{ id: string }>(sql`
      INSERT INTO ticket_messages (ticket_id, author, body, created_at) VALUES (${ticket!.id}, 'requester', 'Hello', now() - make_interval(days => ${daysAgo})) RETURNING id`);
    const key = randomUUID().replace(/-/g, '');
    await mkdir(t.config.attachmentsDir, { recursive: true });
    const file = path.join(t.config.attachmentsDir, key);
    await writeFile(file, 'png bytes');
    await t.database.db.execute(sql`
      INSERT INTO ticket_attachments (ticket_id, message_id, storage_key, filename, content_type, size)
      VALUES (${ticket!.id}, ${message!.id}, ${key}, 'a.png', 'image/png', 9)`);
    return { guestId, ticketId: ticket!.id, file };
  }

  /** A guest's swap `daysAgo`, finished, with a claim code; `claim` says whether and how its reward stands. */
  async function guestExchange(guestId: string, daysAgo: number, claim: 'open' | 'lapsed' | { creditedTo: string }) {
    const id = randomUUID();
    const deadline = claim === 'open' ? sql`now() + interval '10 days'` : sql`now() - interval '1 day'`;
    await t.database.db.execute(sql`
      INSERT INTO exchanges (id, guest_id, provider_exchange_id, status, from_currency, to_currency, amount_from, payin_address, payout_address,
                             usd_value_cents, reward_cents, earned_reward_cents, reward_mode, claim_code_hash, claim_deadline, finished_at, created_at, updated_at)
      VALUES (${id}, ${guestId}, ${`sbx-${id}`}, 'finished', 'btc', 'eth', '0.01', 'bc1qpayin', '0xpayout', 50000, 250, 250, 'claim', 'hash', ${deadline},
              now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}), now() - make_interval(days => ${daysAgo}))`);
    await t.database.db.execute(sql`
      INSERT INTO sandbox_swap_exchanges (id, data, created_at, updated_at) VALUES (${`sbx-${id}`}, '{}'::jsonb, now() - interval '40 days', now() - interval '40 days')`);
    if (typeof claim === 'object') {
      await postLedgerEntry(
        t.database.db,
        { userId: claim.creditedTo, amountCents: 250, kind: 'reward', reference: `reward:${id}`, description: 'Exchange reward' },
        t.app.events,
      );
      await t.database.db.execute(
        sql`UPDATE exchanges SET reward_user_id = ${claim.creditedTo}, reward_credited_at = now() - make_interval(days => ${daysAgo}) WHERE id = ${id}`,
      );
    }
    return id;
  }

  /** Every ledger entry's reference still finds the record behind it. */
  async function danglingReferences(): Promise<string[]> {
    const rows = await q<{ reference: string }>(sql`
      SELECT e.reference FROM credit_ledger_entries e
      WHERE (e.reference LIKE 'reward:%' AND NOT EXISTS (SELECT 1 FROM exchanges x WHERE 'reward:' || x.id::text = e.reference))
         OR (e.reference LIKE 'payment:%' AND NOT EXISTS (SELECT 1 FROM payments p WHERE e.reference LIKE 'payment:' || p.id::text || '%'))
         OR (e.reference LIKE 'order:%' AND NOT EXISTS (SELECT 1 FROM orders o WHERE 'order:' || o.id::text = e.reference))
         OR (e.reference LIKE 'charge:%' AND NOT EXISTS (SELECT 1 FROM charges c WHERE 'charge:' || c.id::text = e.reference))`);
    return rows.map((r) => r.reference);
  }

  it('prunes what is past its time and keeps every record the ledger or an open claim needs', async () => {
    const user = await registerUser(t);
    const financial = sql`SELECT (SELECT count(*) FROM credit_ledger_entries) + (SELECT count(*) FROM payments) * 1000
      + (SELECT count(*) FROM exchanges) * 1000000 + (SELECT count(*) FROM users) * 1000000000 AS n`;

    // Guests: idle with nothing open (goes), idle with a reward still to claim (stays), idle whose reward
    // was claimed (its session and ticket go, the exchange behind the ledger entry stays), active (stays).
    const idle = await guest(40);
    const openClaim = await guest(40);
    const openClaimExchange = await guestExchange(openClaim.guestId, 40, 'open');
    const claimed = await guest(40);
    const claimedExchange = await guestExchange(claimed.guestId, 40, { creditedTo: user.userId });
    const lapsed = await guest(40);
    await guestExchange(lapsed.guestId, 40, 'lapsed');
    const active = await guest(5);

    // Sessions of the account: ended 31 days ago (goes), 29 days ago (stays), expired 40 days ago (goes).
    const session = (ended: string, expires: string) =>
      q<{ id: string }>(sql`INSERT INTO sessions (user_id, created_at, last_seen_at, expires_at, revoked_at)
        VALUES (${user.userId}, now() - interval '60 days', now() - interval '31 days', now() + ${sql.raw(`interval '${expires}'`)}, ${ended === 'none' ? null : sql`now() - ${sql.raw(`interval '${ended}'`)}`}) RETURNING id`);
    const [endedLongAgo] = await session('31 days', '1 day');
    const [endedRecently] = await session('29 days', '1 day');
    const [expiredLongAgo] = await session('none', '-40 days');

    // One-time links: expired two days ago (goes), still valid (stays).
    const token = (hash: string, expires: string) =>
      t.database.db.execute(sql`INSERT INTO account_tokens (user_id, purpose, token_hash, email, expires_at)
        VALUES (${user.userId}, 'verify_email', ${hash}, 'x@example.com', now() + ${sql.raw(`interval '${expires}'`)})`);
    await token(`old-${user.userId}`, '-2 days');
    await token(`live-${user.userId}`, '1 hour');

    // Webhook deliveries: succeeded 31 days ago (goes), 5 days ago (stays), still pending from long ago (stays).
    const delivery = (status: string, daysAgo: number) =>
      q<{ id: string }>(sql`INSERT INTO webhook_deliveries (user_id, event, payload, status, created_at, delivered_at)
        VALUES (${user.userId}, 'credits.changed', '{}'::jsonb, ${status}, now() - make_interval(days => ${daysAgo}), ${status === 'succeeded' ? sql`now() - make_interval(days => ${daysAgo})` : null}) RETURNING id`);
    const [oldDelivery] = await delivery('succeeded', 31);
    await t.database.db.execute(
      sql`INSERT INTO webhook_delivery_attempts (delivery_id, attempt, url, status_code, duration_ms) VALUES (${oldDelivery!.id}, 1, 'https://x', 200, 5)`,
    );
    const [recentDelivery] = await delivery('succeeded', 5);
    const [pendingDelivery] = await delivery('pending', 40);

    // Sandbox: a payment's provider row, 40 days old, while its payment is still waiting (stays) and once it is final (goes).
    const sandboxPayment = async (status: string) => {
      const providerId = `sbx-${randomUUID()}`;
      await t.database.db
        .execute(sql`INSERT INTO payments (user_id, provider_payment_id, status, price_amount_cents, pay_currency, fee_percent, fee_cents, credits_cents, expires_at, created_at, updated_at)
        VALUES (${user.userId}, ${providerId}, ${status}, 1000, 'btc', 3, 30, 970, now() - interval '39 days', now() - interval '40 days', now() - interval '40 days')`);
      await t.database.db.execute(
        sql`INSERT INTO sandbox_nowpayments_payments (payment_id, data, created_at, updated_at) VALUES (${providerId}, '{}'::jsonb, now() - interval '40 days', now() - interval '40 days')`,
      );
      return providerId;
    };
    const waiting = await sandboxPayment('waiting');
    const expired = await sandboxPayment('expired');

    const financialBefore = await count(financial);
    const result = await pruneDeadRows(t.database.db, t.config.attachmentsDir);
    expect(result).toMatchObject({ idleGuestTickets: 3, idleGuestSessions: 3, endedSessions: 2, finishedWebhookDeliveries: 1 });

    // Guests
    const guestRows = async (g: { guestId: string }) => ({
      sessions: await count(sql`SELECT count(*)::int AS n FROM sessions WHERE guest_id = ${g.guestId}`),
      tickets: await count(sql`SELECT count(*)::int AS n FROM tickets WHERE guest_id = ${g.guestId}`),
    });
    expect(await guestRows(idle)).toEqual({ sessions: 0, tickets: 0 });
    await expect(access(idle.file)).rejects.toThrow();
    expect(await guestRows(openClaim)).toEqual({ sessions: 1, tickets: 1 });
    await access(openClaim.file);
    expect(await guestRows(claimed)).toEqual({ sessions: 0, tickets: 0 });
    expect(await guestRows(lapsed)).toEqual({ sessions: 0, tickets: 0 });
    expect(await guestRows(active)).toEqual({ sessions: 1, tickets: 1 });
    // The exchanges stay: the open claim can still be redeemed, the claimed one is behind a ledger entry.
    expect(await count(sql`SELECT count(*)::int AS n FROM exchanges WHERE id IN (${openClaimExchange}, ${claimedExchange})`)).toBe(2);
    expect(await count(sql`SELECT count(*)::int AS n FROM sandbox_swap_exchanges WHERE id = ${`sbx-${openClaimExchange}`}`)).toBe(1);

    // Sessions
    const sessionIds = (await q<{ id: string }>(sql`SELECT id FROM sessions WHERE user_id = ${user.userId}`)).map((r) => r.id);
    expect(sessionIds).not.toContain(endedLongAgo!.id);
    expect(sessionIds).not.toContain(expiredLongAgo!.id);
    expect(sessionIds).toContain(endedRecently!.id);
    expect(sessionIds.length).toBeGreaterThanOrEqual(2); // the registration's live session stays too

    // Tokens
    expect(
      (
        await q<{ token_hash: string }>(
          sql`SELECT token_hash FROM account_tokens WHERE user_id = ${user.userId} AND (token_hash LIKE 'old-%' OR token_hash LIKE 'live-%')`,
        )
      ).map((r) => r.token_hash),
    ).toEqual([`live-${user.userId}`]);

    // Webhook deliveries
    const deliveries = (await q<{ id: string }>(sql`SELECT id FROM webhook_deliveries WHERE user_id = ${user.userId}`))
      .map((r) => r.id)
      .sort();
    expect(deliveries).toEqual([recentDelivery!.id, pendingDelivery!.id].sort());
    expect(await count(sql`SELECT count(*)::int AS n FROM webhook_delivery_attempts WHERE delivery_id = ${oldDelivery!.id}`)).toBe(0);

    // Sandbox rows: the open payment's stays, the final one's goes; both payments stay.
    expect(
      (
        await q<{ payment_id: string }>(
          sql`SELECT payment_id FROM sandbox_nowpayments_payments WHERE payment_id IN (${waiting}, ${expired})`,
        )
      ).map((r) => r.payment_id),
    ).toEqual([waiting]);

    // The books: nothing financial deleted, every ledger reference still resolves, the ledger sums.
    expect(await count(financial)).toBe(financialBefore);
    expect(await danglingReferences()).toEqual([]);
    expect(await ledgerViolations(t.database.db)).toEqual([]);

    // A second run finds nothing more.
    expect(await pruneDeadRows(t.database.db, t.config.attachmentsDir)).toMatchObject({
      expiredTokens: 0,
      endedSessions: 0,
      idleGuestTickets: 0,
      idleGuestSessions: 0,
      finishedWebhookDeliveries: 0,
      sandboxRows: 0,
      dataExports: 0,
    });
  }, 120_000);
});
