import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeLedgerCursor } from '#shared/schemas/credits.js';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser } from '#server/test/http.js';
import { control, deposit } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

/**
 * The hot reads keep an index under them (docs/performance.md#queries-that-stay-flat): every statement the
 * API runs for the pages people open most is planned with sequential scans priced out
 * (`enable_seqscan = off`), and no plan may still read a large table whole. A plan that does has no
 * index it can use, so the page gets slower with every row, which a fresh test database never shows.
 * The statements are the ones the API really sends, recorded from the pool, with their parameters.
 */

/** Tables that stay small whatever the traffic (settings and catalogues of a few rows): read whole. */
const SMALL_TABLES = new Set([
  'app_settings',
  'catalogue_items',
  'support_rules',
  'support_settings',
  'business_hours',
  'sla_policies',
  'help_articles',
  'status_components',
  'support_sla_targets',
  'support_holidays',
  '__drizzle_migrations',
]);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

/** The large tables a plan reads whole: a sequential scan, or an index walked end to end with no condition and no limit above it. */
function wholeTableReads(node: PlanNode, underLimit = false): string[] {
  const found: string[] = [];
  const table = node['Relation Name'];
  if (table && !SMALL_TABLES.has(table)) {
    if (node['Node Type'] === 'Seq Scan') found.push(`${table} (sequential scan)`);
    if ((node['Node Type'] === 'Index Scan' || node['Node Type'] === 'Index Only Scan') && !node['Index Cond'] && !underLimit)
      found.push(`${table} (whole index)`);
  }
  for (const child of node.Plans ?? []) found.push(...wholeTableReads(child, underLimit || node['Node Type'] === 'Limit'));
  return found;
}

interface Recorded {
  text: string;
  values: unknown[];
}

/** Records every statement the pool runs while `run` is in progress. */
async function recordStatements(pool: pg.Pool, run: () => Promise<void>): Promise<Recorded[]> {
  const recorded: Recorded[] = [];
  const original = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  const recordingQuery = (...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof first === 'string') recorded.push({ text: first, values: second ?? [] });
    else if (first && typeof first.text === 'string') recorded.push({ text: first.text, values: first.values ?? second ?? [] });
    return original(...args);
  };
  (pool as { query: unknown }).query = recordingQuery;
  try {
    await run();
  } finally {
    (pool as { query: unknown }).query = original;
  }
  return recorded;
}

describe.each(enginesFor('database'))('the hot reads use an index on %s', (engine) => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof registerUser>>;
  let staff: Awaited<ReturnType<typeof registerUser>>;
  let ticketId: string;
  let ledgerId: string;
  let ledgerCursor: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    user = await registerUser(t);
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'admin');
    const payment = await deposit(t, user.token);
    await control(t, payment.providerPaymentId, { status: 'finished' });
    await t.app.jobs.drain();
    const ticket = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { subject: 'Where is my deposit?', message: 'I sent BTC an hour ago.', category: 'payments' },
    });
    expect(ticket.status, JSON.stringify(ticket.json)).toBe(201);
    ticketId = ticket.json._id ?? ticket.json.ticket?._id;
    const history = await call(t, 'GET', '/api/credits/history', { token: user.token });
    ledgerId = history.json.entries?.[0]?._id ?? history.json.items?.[0]?._id;
    // A cursor at the newest entry (docs/decisions/0333): the keyset read from there.
    const newest = history.json.entries[0];
    ledgerCursor = encodeLedgerCursor({
      createdAt: String(newest.createdAt).replace('Z', '000Z'),
      balanceAfterCents: newest.balanceAfterCents,
      id: newest._id,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** The pages people open most, as the API serves them: a user's, then staff's. */
  const READS: Array<{ path: () => string; as: 'user' | 'staff' }> = [
    { path: () => '/api/auth/me', as: 'user' },
    { path: () => '/api/credits/history?page=3', as: 'user' },
    { path: () => `/api/credits/history?cursor=${ledgerCursor}`, as: 'user' },
    { path: () => `/api/credits/ledger/${ledgerId}/receipt`, as: 'user' },
    { path: () => '/api/payments/mine?page=2', as: 'user' },
    { path: () => '/api/exchange/exchanges', as: 'user' },
    { path: () => '/api/notifications', as: 'user' },
    { path: () => '/api/tickets', as: 'user' },
    { path: () => `/api/tickets/${ticketId}`, as: 'user' },
    { path: () => '/api/orders', as: 'user' },
    { path: () => '/api/auth/sessions', as: 'user' },
    { path: () => '/api/help/articles?search=deposit', as: 'user' },
    { path: () => '/api/staff/tickets', as: 'staff' },
    { path: () => `/api/staff/tickets/${ticketId}`, as: 'staff' },
    { path: () => '/api/admin/users', as: 'staff' },
    { path: () => `/api/admin/users?search=${user.username}`, as: 'staff' },
    { path: () => '/api/admin/exchanges', as: 'staff' },
    { path: () => `/api/admin/users/${user.userId}`, as: 'staff' },
    { path: () => `/api/admin/users/${user.userId}/ledger`, as: 'staff' },
    { path: () => '/api/admin/payments', as: 'staff' },
    { path: () => '/api/admin/audit', as: 'staff' },
    { path: () => '/api/staff/ads/stats', as: 'staff' },
  ];

  it('no statement behind the hot reads reads a large table whole', async () => {
    // Recorded first, explained after: the embedded database has one connection, which the app needs.
    const byPath: Array<[string, Recorded[]]> = [];
    for (const read of READS) {
      const path = read.path();
      let status = 0;
      const statements = await recordStatements(t.database.pool, async () => {
        status = (await call(t, 'GET', path, { token: read.as === 'user' ? user.token : staff.token })).status;
      });
      expect(status, path).toBe(200);
      byPath.push([path, statements.filter((s) => /^\s*(select|with)\b/i.test(s.text))]);
    }
    expect(byPath.flatMap(([, statements]) => statements).length).toBeGreaterThan(READS.length);

    const findings: Record<string, string[]> = {};
    const client = await t.database.pool.connect();
    try {
      await client.query('SET enable_seqscan = off');
      for (const [path, statements] of byPath) {
        for (const statement of statements) {
          const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values);
          const plan = (rows[0]['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan;
          const whole = wholeTableReads(plan);
          if (whole.length) (findings[path] ??= []).push(`${whole.join(', ')}: ${statement.text.slice(0, 160)}`);
        }
      }
    } finally {
      await client.query('RESET enable_seqscan');
      client.release();
    }
    // As text, so that the first lines of a failure name the page and the table.
    expect(JSON.stringify(findings, null, 1)).toBe('{}');
  }, 240_000);
});
