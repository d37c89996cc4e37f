import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '#server/db/client.js';
import { runMigrations } from '#server/db/migrate.js';
import { call, registerUser, TEST_PASSWORD } from './http.js';
import { ledgerViolations } from './ledger-invariants.js';
import { control, deposit } from './payments.js';
import { startTestApp, type TestApp } from './test-app.js';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#server/config.js';

const run = promisify(execFile);
const ADMIN_URL = process.env.TEST_DATABASE_URL;

/**
 * The backup of the README ("Backups"): `pg_dump -Fc` of a database with users and balances, restored
 * with `pg_restore` into a fresh database, holds every balance, the whole ledger and its invariants,
 * and the app runs on it. PostgreSQL only (the embedded database is a directory: copy it stopped);
 * CI sets TEST_DATABASE_URL, so it runs there.
 */
if (!ADMIN_URL) console.warn('backup-restore.test.ts: NOT RUN: TEST_DATABASE_URL is unset (pg_dump and pg_restore need PostgreSQL)');

describe.skipIf(!ADMIN_URL)('a pg_dump backup restored into a fresh database', () => {
  let t: TestApp;
  let dir: string;
  const restoredName = `olympus_restored_${Math.random().toString(36).slice(2, 10)}`;
  const restoredUrl = () => {
    const url = new URL(ADMIN_URL!);
    url.pathname = `/${restoredName}`;
    return url.toString();
  };
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    t = await startTestApp('postgres');
    dir = mkdtempSync(path.join(tmpdir(), 'olympus-backup-'));
  });
  afterAll(async () => {
    await t?.close();
    await admin(`DROP DATABASE IF EXISTS ${restoredName} WITH (FORCE)`).catch(() => {});
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every balance, every ledger entry and the invariants; and the app signs the same account in with the same balance', async () => {
    // Users with different balances: two top-ups, one, and none.
    const users = await Promise.all([registerUser(t), registerUser(t), registerUser(t)]);
    for (const [user, amounts] of [
      [users[0]!, [100, 37]],
      [users[1]!, [12]],
    ] as const) {
      for (const amount of amounts) {
        const payment = await deposit(t, user.token, { crypto: 'btc', amount });
        await control(t, payment.providerPaymentId, { status: 'finished' });
      }
    }
    const before = await t.database.pool.query<{ id: string; credits_cents: number }>('SELECT id, credits_cents FROM users ORDER BY id');
    const ledgerBefore = await t.database.pool.query<{ reference: string; amount_cents: number; balance_after_cents: number }>(
      'SELECT reference, amount_cents, balance_after_cents FROM credit_ledger_entries ORDER BY reference',
    );
    expect(before.rows.filter((u) => u.credits_cents > 0)).toHaveLength(2);
    const shownBefore = (await call(t, 'GET', `/api/users/${users[0]!.userId}/credits`, { token: users[0]!.token })).json.credits as number;
    expect(shownBefore).toBeGreaterThan(0);
    expect(ledgerBefore.rows.length).toBeGreaterThanOrEqual(3);

    // The backup, as the README says: custom format, no owners (restorable under another role).
    const dump = path.join(dir, 'olympus.dump');
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${dump}`, t.database.connectionString]);
    expect(statSync(dump).size).toBeGreaterThan(0);

    // A fresh database elsewhere, and the restore.
    await admin(`CREATE DATABASE ${restoredName}`);
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${restoredUrl()}`, dump]);

    const restored = await openDatabase({ databaseUrl: restoredUrl(), dataDir: 'unused' });
    try {
      const after = await restored.pool.query<{ id: string; credits_cents: number }>('SELECT id, credits_cents FROM users ORDER BY id');
      expect(after.rows).toEqual(before.rows);
      const ledgerAfter = await restored.pool.query(
        'SELECT reference, amount_cents, balance_after_cents FROM credit_ledger_entries ORDER BY reference',
      );
      expect(ledgerAfter.rows).toEqual(ledgerBefore.rows);
      expect(await ledgerViolations(restored.db)).toEqual([]);
      // Migrations see nothing left to apply, and the ledger's immutability trigger came back with it.
      await runMigrations(restored.pool);
      await expect(restored.pool.query('UPDATE credit_ledger_entries SET amount_cents = amount_cents + 1')).rejects.toThrow();
    } finally {
      await restored.close();
    }

    // The app on the restored database: the same account signs in and sees the same balance.
    const database = await openDatabase({ databaseUrl: restoredUrl(), dataDir: 'unused' });
    const config = loadConfig({ NODE_ENV: 'test', PORT: '0', LOG_LEVEL: 'silent', JWT_SECRET: 'x'.repeat(40), DATA_DIR: 'memory://' });
    const app = await buildApp({ config, database, isMigrated: () => true });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const restoredApp = { app, config, database, url, close: async () => {} } as TestApp;
      const login = await call(restoredApp, 'POST', '/api/login', {
        body: { username: users[0]!.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      expect(login.status).toBe(200);
      const credits = await call(restoredApp, 'GET', `/api/users/${users[0]!.userId}/credits`, { token: login.json.token as string });
      expect(credits.json.credits).toBe(shownBefore);
    } finally {
      await app.close();
      await database.close();
    }
  }, 180_000);
});
