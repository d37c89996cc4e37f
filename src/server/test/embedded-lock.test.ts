import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { call, registerUser, TEST_PASSWORD } from '#server/test/http.js';
import { openDatabase } from '#server/db/client.js';
import { EmbeddedDatabaseInUseError } from '#server/db/embedded-lock.js';
import { runMigrations } from '#server/db/migrate.js';

const run = promisify(execFile);
/** The operator command as `npm run cli` runs it, on `dataDir`; answers its exit code and output. */
async function cli(dataDir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      timeout: 120_000,
    });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/**
 * The embedded database belongs to one process (src/server/db/embedded-lock.ts): the operator command
 * run while the server holds the directory is refused with a clear message, and the running server keeps
 * working; once the server stops, the command runs. Embedded only: PostgreSQL takes any number of clients.
 */
describe('one process per embedded database directory', () => {
  const dirs: string[] = [];
  const newDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'olympus-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the operator command while the server runs, and the server keeps signing people in', async () => {
    const dataDir = newDir();
    const database = await openDatabase({ dataDir });
    await runMigrations(database.pool);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: dataDir,
      RATE_LIMITS: '0',
    });
    const app = await buildApp({ config, database });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const t = { app, url, config, database, close: async () => {} };
    try {
      const user = await registerUser(t);
      expect(readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));

      const refused = await cli(
        dataDir,
        'create-user',
        '--username',
        'second_admin',
        '--password',
        'a long admin passphrase',
        '--role',
        'admin',
      );
      expect(refused.code).toBe(1);
      expect(refused.output).toContain(`is in use by another process (pid ${process.pid})`);
      expect(refused.output).toContain('DATABASE_URL');

      // The server was not disturbed: signing in works, and nothing was created behind its back.
      const login = await call(t, 'POST', '/api/login', {
        body: { username: user.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      expect(login.status).toBe(200);
      expect((await database.pool.query("SELECT count(*)::int AS n FROM users WHERE username = 'second_admin'")).rows[0].n).toBe(0);
      // A second open in this process is refused the same way.
      await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(EmbeddedDatabaseInUseError);
    } finally {
      await app.close();
      await database.close();
    }
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

    const created = await cli(
      dataDir,
      'create-user',
      '--username',
      'second_admin',
      '--password',
      'a long admin passphrase',
      '--role',
      'admin',
    );
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain('with role admin');
    // The first admin is told how to set up two-factor before the console opens (on by default).
    expect(created.output).toContain('Two-factor sign-in');
  }, 240_000);

  it('takes over a lock left by a process that is gone', async () => {
    const dataDir = newDir();
    // A pid far above any this machine hands out: nobody holds it.
    writeFileSync(path.join(dataDir, 'pglite.lock'), '4194000');
    const database = await openDatabase({ dataDir });
    expect(readFileSync(path.join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    await database.close();
  }, 120_000);
});
