import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.js';
import { verifyPassword } from './modules/auth/passwords.js';
import { findUserByLogin } from './modules/users/users.service.js';
import { createTestDatabase, enginesFor } from './test/test-app.js';

const run = promisify(execFile);
const TSX = path.resolve('node_modules/.bin/tsx');

async function cli(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(TSX, ['src/server/cli.ts', ...args], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('operator command create-user', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates an admin account on the embedded database that can sign in', async () => {
    const res = await cli(['create-user', '--username', 'opsadmin', '--password', 'operator passphrase 1', '--role', 'admin'], {
      DATA_DIR: dataDir,
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(/Created opsadmin .* with role admin/);

    const database = await openDatabase({ dataDir });
    try {
      const user = await findUserByLogin(database.db, 'OpsAdmin');
      expect(user?.role).toBe('admin');
      expect(await verifyPassword(user!.passwordHash, 'operator passphrase 1')).toBe(true);
    } finally {
      await database.close();
    }
  });

  it('refuses a duplicate, a bad role and a short password with a clear message', async () => {
    const dup = await cli(['create-user', '--username', 'opsadmin', '--password', 'operator passphrase 1'], { DATA_DIR: dataDir });
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists/);
    const role = await cli(['create-user', '--username', 'x_y_z', '--password', 'operator passphrase 1', '--role', 'root'], {
      DATA_DIR: dataDir,
    });
    expect(role.stderr).toMatch(/--role must be one of user, support, admin/);
    const short = await cli(['create-user', '--username', 'shorty', '--password', 'short'], { DATA_DIR: dataDir });
    expect(short.stderr).toMatch(/--password: Password must be at least 8 characters/);
    const common = await cli(['create-user', '--username', 'weakadmin', '--password', 'Password123', '--role', 'admin'], {
      DATA_DIR: dataDir,
    });
    expect(common.code).not.toBe(0);
    expect(common.stderr).toMatch(/--password: This password is too common/);
  });
});

// Runs when TEST_DATABASE_URL names a PostgreSQL server (enginesFor('database') then includes it).
describe.each(enginesFor('database').filter((engine) => engine === 'postgres'))('operator command on %s', (engine) => {
  it('creates a support account', async () => {
    const db = await createTestDatabase(engine);
    try {
      const res = await cli(['create-user', '--username', 'helper1', '--password', 'support passphrase 1', '--role', 'support'], {
        DATABASE_URL: db.database.connectionString,
      });
      expect(res.stdout).toMatch(/with role support/);
      expect((await findUserByLogin(db.database.db, 'helper1'))?.role).toBe('support');
    } finally {
      await db.dispose();
    }
  });
});
