// The data of `npm run bench -- --scale` (docs/performance.md#scale): a database the size of a product
// that has lived for years, written with set-based SQL (INSERT ... SELECT FROM generate_series), never a
// request per row. Shared by bench/scale.mjs and its test (src/server/test/scale-seed.test.ts).
//
// The ledger keeps its invariants: every user's entries are inserted in posting order, the running
// balance (balance_after_cents) is the window sum of the amounts, never negative, the users' balances
// are the last balance after; no trigger is disabled (the immutability trigger refuses UPDATE and
// DELETE only, the live-update triggers fire as for any insert).

/** Users with a long history: each holds 2% of the ledger, so their deep pages grow with the database. */
export const LONG_LIVED_USERS = 10;
/** Entries of every other user: a constant, so their pages do not depend on the database size. */
export const ENTRIES_PER_USER = 40;
/** Days of history the data spans, ending now. */
export const HISTORY_DAYS = 730;

/**
 * How many rows of each kind go with `entries` ledger entries.
 * @param {number} entries
 */
export function scalePlan(entries) {
  const longLivedEntries = Math.floor((entries * 0.2) / LONG_LIVED_USERS);
  const regularUsers = Math.max(1, Math.round((entries - longLivedEntries * LONG_LIVED_USERS) / ENTRIES_PER_USER));
  return {
    entries: longLivedEntries * LONG_LIVED_USERS + regularUsers * ENTRIES_PER_USER,
    longLivedEntries,
    regularUsers,
    users: regularUsers + LONG_LIVED_USERS,
    payments: Math.max(1, Math.round(entries / 10)),
    exchanges: Math.max(1, Math.round(entries / 20)),
    impressions: entries,
    tickets: Math.max(1, Math.round(entries / 100)),
    messagesPerTicket: 3,
    helpArticles: Math.max(5, Math.round(entries / 1000)),
    notifications: Math.max(1, Math.round(entries / 2)),
    /** Dead rows the prune removes: the same at every size (the prune's cost should follow them, not the tables). */
    deadSessions: 500,
    oldNotifications: 500,
  };
}

/**
 * @typedef {(text: string, values?: unknown[]) => Promise<{ rows: any[], rowCount?: number | null }>} Query
 */

/**
 * Seeds the database (migrated, possibly holding other rows) with `entries` ledger entries and the rest
 * in proportion. Users are named `${prefix}<n>`, n from 1; users 1..10 are the long-lived ones.
 * Answers the plan and the seconds each table took.
 * @param {Query} q
 * @param {number} entries
 * @param {{ prefix?: string, log?: (line: string) => void }} [options]
 */
export async function seedScale(q, entries, { prefix = 'scale', log = () => {} } = {}) {
  const plan = scalePlan(entries);
  /** @type {Record<string, number>} */
  const seconds = {};
  const step = async (name, text, values) => {
    const started = performance.now();
    const result = await q(text, values);
    seconds[name] = Math.round((performance.now() - started) / 100) / 10;
    log(`    ${name}: ${result.rowCount ?? '?'} rows in ${seconds[name]} s`);
  };
  const P = prefix;

  await step(
    'users',
    `INSERT INTO users (username, email, password_hash, referral_code, created_at)
     SELECT $1::text || i, $1::text || i || '@example.com', 'not-a-hash', upper($1::text) || 'R' || i, now() - ${HISTORY_DAYS} * interval '1 day' - interval '1 hour'
     FROM generate_series(1, $2::int) AS i`,
    [P, plan.users],
  );
  // Every user's entries in posting order (ORDER BY), the running balance a window sum: credits of
  // 2.00 and spends of 1.00 (every third entry), so it never goes below zero.
  await step(
    'ledger',
    `WITH owners AS (
       SELECT u.id, substr(u.username, length($1::text) + 1)::int AS n FROM users u WHERE u.username ~ ('^' || $1::text || '[0-9]+$')
     ), counted AS (
       SELECT id, n, CASE WHEN n <= $2::int THEN $3::int ELSE $4::int END AS total FROM owners
     ), entries AS (
       SELECT c.id AS user_id, c.n, i, c.total, CASE WHEN i % 3 = 0 THEN -100 ELSE 200 END AS amount
       FROM counted c, generate_series(1, c.total) AS i
     )
     INSERT INTO credit_ledger_entries (user_id, amount_cents, balance_after_cents, kind, reference, description, created_at)
     SELECT user_id, amount, sum(amount) OVER (PARTITION BY user_id ORDER BY i),
            CASE WHEN amount > 0 THEN 'adjustment' ELSE 'spend' END,
            $1::text || ':' || n || ':' || i,
            CASE WHEN amount > 0 THEN 'Scale bench credit' ELSE 'Scale bench spend' END,
            now() - ${HISTORY_DAYS} * interval '1 day' + (i::float8 / total) * (${HISTORY_DAYS} * interval '1 day' - interval '1 minute')
     FROM entries
     ORDER BY user_id, i`,
    [P, 10, plan.longLivedEntries, ENTRIES_PER_USER],
  );
  await step(
    'balances',
    `UPDATE users u SET credits_cents = last.balance
     FROM (SELECT DISTINCT ON (user_id) user_id, balance_after_cents AS balance FROM credit_ledger_entries
           WHERE reference LIKE $1::text || ':%' ORDER BY user_id, created_at DESC, balance_after_cents DESC) last
     WHERE u.id = last.user_id`,
    [P],
  );
  // Users in a fixed order, by their number, for the tables below (row i goes to user 1 + i % users).
  const usersCte = `WITH us AS (SELECT id, substr(username, length($1::text) + 1)::int - 1 AS k FROM users WHERE username ~ ('^' || $1::text || '[0-9]+$'))`;
  await step(
    'payments',
    `${usersCte}
     INSERT INTO payments (user_id, provider_payment_id, status, price_amount_cents, pay_currency, fee_percent, fee_cents, credits_cents, credited_cents, expires_at, created_at, updated_at)
     SELECT us.id, $1::text || '-pay-' || i, 'finished', 2000, 'btc', 5, 100, 1900, 1900, t + interval '1 day', t, t
     FROM generate_series(0, $2::int - 1) AS i
     JOIN us ON us.k = i % $3::int
     CROSS JOIN LATERAL (SELECT now() - ${HISTORY_DAYS} * interval '1 day' + (i::float8 / $2::int) * ${HISTORY_DAYS} * interval '1 day' AS t) tt`,
    [P, plan.payments, plan.users],
  );
  await step(
    'exchanges',
    `${usersCte}
     INSERT INTO exchanges (user_id, provider_exchange_id, status, from_currency, to_currency, amount_from, payin_address, payout_address, usd_value_cents, reward_cents, reward_mode, created_at, updated_at)
     SELECT us.id, $1::text || '-ex-' || i, 'finished', 'btc', 'eth', '0.01', 'bc1qscale' || i, '0xscale' || i, 50000, 250, 'direct', t, t
     FROM generate_series(0, $2::int - 1) AS i
     JOIN us ON us.k = i % $3::int
     CROSS JOIN LATERAL (SELECT now() - ${HISTORY_DAYS} * interval '1 day' + (i::float8 / $2::int) * ${HISTORY_DAYS} * interval '1 day' AS t) tt`,
    [P, plan.exchanges, plan.users],
  );
  // Ten house ads; impressions spread over the last 90 days (what the ad reports read).
  await step(
    'ads',
    `INSERT INTO ads (placement, title, target_url) SELECT 'home-banner', $1::text || ' ad ' || i, 'https://example.com/' || i FROM generate_series(1, 10) AS i`,
    [P],
  );
  await step(
    'ad impressions',
    `WITH a AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM ads WHERE title LIKE $1::text || ' ad %')
     INSERT INTO ad_impressions (ad_id, viewer_key, created_at)
     SELECT a.id, 'v' || (i % 50000), now() - (i::float8 / $2::int) * interval '90 days'
     FROM generate_series(0, $2::int - 1) AS i JOIN a ON a.k = i % 10`,
    [P, plan.impressions],
  );
  await step(
    'tickets',
    `${usersCte}
     INSERT INTO tickets (user_id, subject, category, priority, status, message_count, created_at, updated_at, last_message_at, first_response_at)
     SELECT us.id, 'Scale question ' || i || CASE i % 4 WHEN 0 THEN ' about my deposit' WHEN 1 THEN ' about a payout' WHEN 2 THEN ' about an exchange' ELSE ' about my account' END,
            (ARRAY['payments', 'exchange', 'account', 'general'])[1 + i % 4], (ARRAY['low', 'normal', 'high', 'urgent'])[1 + i % 4],
            CASE WHEN i % 10 = 0 THEN 'open' WHEN i % 10 = 1 THEN 'pending' ELSE 'closed' END,
            $4::int, t, t + interval '2 hours', t + interval '2 hours', t + interval '1 hour'
     FROM generate_series(0, $2::int - 1) AS i
     JOIN us ON us.k = i % $3::int
     CROSS JOIN LATERAL (SELECT now() - ${HISTORY_DAYS} * interval '1 day' + (i::float8 / $2::int) * ${HISTORY_DAYS} * interval '1 day' AS t) tt`,
    [P, plan.tickets, plan.users, plan.messagesPerTicket],
  );
  await step(
    'ticket messages',
    `INSERT INTO ticket_messages (ticket_id, author, author_user_id, kind, body, created_at)
     SELECT t.id, CASE WHEN m = 2 THEN 'staff' ELSE 'user' END, CASE WHEN m = 2 THEN NULL ELSE t.user_id END, 'reply',
            'Message ' || m || ' of a scale ticket: my deposit has not arrived yet, can you check it?', t.created_at + m * interval '1 hour'
     FROM tickets t, generate_series(1, $2::int) AS m
     WHERE t.user_id IN (SELECT id FROM users WHERE username ~ ('^' || $1::text || '[0-9]+$'))`,
    [P, plan.messagesPerTicket],
  );
  await step(
    'help articles',
    `INSERT INTO help_articles (slug, title, category, body, status)
     SELECT $1::text || '-article-' || i, 'How to ' || (ARRAY['deposit bitcoin', 'withdraw rewards', 'reset a password', 'read my ledger', 'contact support'])[1 + i % 5] || ' (' || i || ')',
            (ARRAY['payments', 'exchange', 'account', 'other', 'payments'])[1 + i % 5],
            repeat('A paragraph about deposits, exchanges, balances and support tickets. ', 20), 'published'
     FROM generate_series(1, $2::int) AS i`,
    [P, plan.helpArticles],
  );
  await step(
    'notifications',
    `${usersCte}
     INSERT INTO notifications (user_id, event, event_key, title, body, link, created_at)
     SELECT us.id, 'ticket.reply', $1::text || '-n-' || i, 'Support replied', 'Support replied to your ticket.', '/dashboard/support',
            now() - (i::float8 / $2::int) * interval '89 days'
     FROM generate_series(0, $2::int - 1) AS i JOIN us ON us.k = i % $3::int`,
    [P, plan.notifications, plan.users],
  );
  await step('analyze', 'ANALYZE');
  return { plan, seconds };
}

/**
 * What the prune removes: a fixed number of dead rows at every size (ended sessions, notifications past
 * their 90 days), so the prune's time should follow them, not the size of the tables.
 * @param {Query} q
 * @param {ReturnType<typeof scalePlan>} plan
 * @param {string} [prefix]
 */
export async function seedDeadRows(q, plan, prefix = 'scale') {
  const usersCte = `WITH us AS (SELECT id, substr(username, length($1::text) + 1)::int - 1 AS k FROM users WHERE username ~ ('^' || $1::text || '[0-9]+$'))`;
  await q(
    `${usersCte}
     , s AS (INSERT INTO sessions (user_id, expires_at, created_at)
             SELECT us.id, now() - interval '60 days', now() - interval '61 days' FROM generate_series(0, $2::int - 1) AS i JOIN us ON us.k = i % $4::int
             RETURNING 1)
     INSERT INTO notifications (user_id, event, event_key, title, body, link, created_at)
     SELECT us.id, 'ticket.reply', $1::text || '-old-' || i || '-' || extract(epoch from now())::bigint, 'Support replied', 'Support replied to your ticket.', '/dashboard/support', now() - interval '120 days'
     FROM generate_series(0, $3::int - 1) AS i JOIN us ON us.k = i % $4::int`,
    [prefix, plan.deadSessions, plan.oldNotifications, plan.users],
  );
}

/**
 * Ledger entries whose running balance does not follow from the previous one (posting order: the
 * instant, then the reference's number), and users whose balance is not their last balance after.
 * Both counts are 0 for a consistent ledger.
 * @param {Query} q
 * @param {string} [prefix]
 */
export async function ledgerInconsistencies(q, prefix = 'scale') {
  const chain = await q(
    `SELECT count(*)::int AS n FROM (
       SELECT balance_after_cents, amount_cents,
              lag(balance_after_cents, 1, 0::bigint) OVER (PARTITION BY user_id ORDER BY created_at, split_part(reference, ':', 3)::int) AS before
       FROM credit_ledger_entries WHERE reference LIKE $1::text || ':%') e
     WHERE e.before + e.amount_cents <> e.balance_after_cents OR e.balance_after_cents < 0`,
    [prefix],
  );
  const balances = await q(
    `SELECT count(*)::int AS n FROM users u
     JOIN LATERAL (SELECT balance_after_cents FROM credit_ledger_entries l WHERE l.user_id = u.id ORDER BY created_at DESC, balance_after_cents DESC LIMIT 1) last ON true
     WHERE u.username ~ ('^' || $1::text || '[0-9]+$') AND u.credits_cents <> last.balance_after_cents`,
    [prefix],
  );
  return { brokenChain: chain.rows[0].n, wrongBalances: balances.rows[0].n };
}
