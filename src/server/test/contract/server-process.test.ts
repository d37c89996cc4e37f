import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, enginesFor, type Engine, type TestDatabase } from '../test-app.js';

/**
 * The real server process (src/server/server.ts under tsx, as `npm run dev` runs it), on its own data
 * directory or PostgreSQL database: what `npm start` does, minus the build.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      // Port 0: the OS picks a free port; Fastify's "Server listening at" log line tells which.
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

/** SIGTERM, then the exit code (a hung shutdown fails the test rather than the whole run). */
async function stopServer(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGTERM');
  return Promise.race([
    server.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit 20 s after SIGTERM:\n${server.output()}`)), 20_000)),
  ]);
}

/** Where the server keeps its data: a temporary DATA_DIR (PGlite) or a fresh PostgreSQL database. */
async function storageFor(engine: Engine): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-process-'));
  const cleanDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') return { env: { DATA_DIR: dataDir }, dispose: async () => cleanDir() };
  const db: TestDatabase = await createTestDatabase('postgres');
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.database.connectionString };
  // The server opens its own connections; this pool was only needed to create and migrate it.
  await db.database.close();
  return {
    env,
    dispose: async () => {
      await db.dispose();
      cleanDir();
    },
  };
}

const newUser = () => ({
  username: `ann_${Math.random().toString(36).slice(2, 10)}`,
  email: `ann${Date.now()}@example.com`,
  password: 'correct horse battery staple',
  turnstileToken: 'ok',
});

/**
 * Sends a request's headers and half its body, runs `during` while the request is still open, then the
 * rest of the body; resolves with the answer. `during` starts once the server has the headers: the
 * request says `Expect: 100-continue`, and Node's server answers "100 Continue" when it has read them.
 */
function slowPost(
  url: string,
  headers: Record<string, string>,
  body: string,
  during: () => Promise<void>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half));
    req.once('continue', () =>
      during().then(
        () => req.end(body.slice(half)),
        (err: unknown) => {
          req.destroy();
          reject(err);
        },
      ),
    );
  });
}

/** Whether a new connection to the server is still served (a fresh connection each time, never a kept-alive one). */
async function accepts(url: string): Promise<boolean> {
  return fetch(`${url}/healthz`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(5000) }).then(
    () => true,
    () => false,
  );
}

describe.each(enginesFor('database'))('the server process on %s', (engine) => {
  let storage: Awaited<ReturnType<typeof storageFor>>;
  let running: ServerProcess | undefined;
  beforeAll(async () => {
    storage = await storageFor(engine);
  });
  afterEach(() => {
    // A failed test must not leave a server behind.
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    running = undefined;
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  it('finishes a request in flight on SIGTERM, refuses new work, and exits 0', async () => {
    const server = (running = await startServer(storage.env));
    const user = newUser();
    const registered = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };

    // A password change: real work (argon2 and a transaction) that must complete, not be cut off.
    let exitCode: Promise<number | null> | undefined;
    const answer = await slowPost(
      `${server.url}/api/users/change-password`,
      { authorization: `Bearer ${token}` },
      JSON.stringify({ currentPassword: user.password, newPassword: 'another long passphrase' }),
      async () => {
        // The server has the headers and is waiting for the rest of the body.
        exitCode = stopServer(server);
        // Once shutting down, no new connection is accepted (while this request is still open).
        await expect.poll(() => accepts(server.url), { timeout: 10_000 }).toBe(false);
      },
    );
    const code = await exitCode;
    expect(answer.status, `${answer.body}\n${server.output()}`).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ message: 'Password updated' });
    expect(code).toBe(0);
    expect(server.output()).toMatch(/shutting down/);

    // The change was committed before the process ended.
    const again = (running = await startServer(storage.env));
    const login = await fetch(`${again.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: 'another long passphrase', turnstileToken: 'ok' }),
    });
    expect(login.status).toBe(200);
    expect(await stopServer(again)).toBe(0);
  }, 180_000);

  it('with a drain time, says "stopping" on /readyz and still answers requests before it closes', async () => {
    const server = (running = await startServer({ ...storage.env, SHUTDOWN_DRAIN_MS: '3000' }));
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const sent = Date.now();
    const exitCode = stopServer(server);
    await expect.poll(() => server.output(), { timeout: 10_000 }).toMatch(/draining/); // the signal was handled
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'stopping' });
    // A proxy's request that arrives before its health check noticed is still served, on a new connection.
    const registered = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', connection: 'close' },
      body: JSON.stringify(newUser()),
    });
    expect(registered.status).toBe(201);
    expect(await exitCode).toBe(0);
    expect(Date.now() - sent).toBeGreaterThanOrEqual(3000);
    expect(server.output()).toMatch(/draining/);
  }, 120_000);

  it('keeps accounts and sessions across a restart on the same data', async () => {
    const user = newUser();
    const first = (running = await startServer(storage.env));
    const registered = await fetch(`${first.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(user),
    });
    expect(registered.status).toBe(201);
    const { token } = (await registered.json()) as { token: string };
    expect(await stopServer(first)).toBe(0);

    const second = (running = await startServer(storage.env));
    const login = await fetch(`${second.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: user.username, password: user.password, turnstileToken: 'ok' }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { user: { username: string }; token: string };
    expect(body.user.username).toBe(user.username);
    expect(body.token).toBeTruthy();
    // The token issued before the restart still works: its session and signing key were kept.
    const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { username: string } }).user.username).toBe(user.username);
    expect(await stopServer(second)).toBe(0);
  }, 180_000);
});
