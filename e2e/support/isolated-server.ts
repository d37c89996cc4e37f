import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ISOLATED_ADMIN = { username: 'status_admin', password: 'status admin passphrase 1' };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface IsolatedServer {
  url: string;
  stop(): Promise<void>;
}

export interface IsolatedServerOptions {
  /** Settings the shared e2e server cannot have. */
  env?: Record<string, string>;
  /**
   * `localhost` serves the app as `http://localhost:<port>` with PUBLIC_URL to match: browsers refuse
   * passkeys on a bare IP address, and the WebAuthn relying party id is the host of PUBLIC_URL.
   */
  host?: '127.0.0.1' | 'localhost';
  /** Make ISOLATED_ADMIN first with the operator command, as an operator would (no test-only door). */
  withAdmin?: boolean;
  readyTimeoutMs?: number;
}

/** The built app on a data directory of its own. */
export async function startIsolatedServer(env: Record<string, string>): Promise<IsolatedServer> {
  return startServer({ env, withAdmin: true });
}

export async function startServer(options: IsolatedServerOptions = {}): Promise<IsolatedServer> {
  const { env = {}, host = '127.0.0.1', withAdmin = false, readyTimeoutMs = 180_000 } = options;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-e2e-'));
  const baseEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  if (withAdmin) {
    execFileSync(
      process.execPath,
      ['dist/server/cli.js', 'create-user', '--username', ISOLATED_ADMIN.username, '--password', ISOLATED_ADMIN.password, '--role', 'admin'],
      { env: baseEnv, stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/server.js'], {
    env: { ...baseEnv, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...(host === 'localhost' ? { PUBLIC_URL: url } : {}), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the test run, even when it is interrupted before afterAll.
  const killChild = () => child.kill('SIGTERM');
  process.once('exit', killChild);
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`isolated server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok).catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('isolated server did not become ready');
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      process.off('exit', killChild);
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type ProviderMode = 'ok' | 'silent';

/** Plays NOWPayments' GET /v1/status: `ok` answers {"message":"OK"}, `silent` accepts and never answers. */
export async function startFakePaymentProvider(initial: ProviderMode) {
  let mode = initial;
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    if (mode === 'silent') {
      hanging.add(res);
      return;
    }
    if (req.url === '/v1/status') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"OK"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiBase: `http://127.0.0.1:${port}/v1`,
    setMode(next: ProviderMode) {
      mode = next;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
