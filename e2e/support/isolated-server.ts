import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, startBuiltServer } from '../../scripts/built-app.mjs';

export const ISOLATED_ADMIN = { username: 'status_admin', password: 'status admin passphrase 1' };

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
  const port = await freePort();
  const url = `http://${host}:${port}`;
  const server = await startBuiltServer({
    port,
    readyTimeoutMs,
    label: 'isolated server',
    captureOutput: 'stderr',
    users: withAdmin ? [{ ...ISOLATED_ADMIN, role: 'admin' }] : [],
    env: { LOG_LEVEL: 'warn', REQUIRE_STAFF_2FA: '0', ...(host === 'localhost' ? { PUBLIC_URL: url } : {}), ...env },
  });
  return { url, stop: () => server.stop() };
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
