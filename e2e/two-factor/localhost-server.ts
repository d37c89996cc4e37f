import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface LocalhostServer {
  /** `http://localhost:<port>`: a host name, so browsers allow passkeys (they refuse a bare IP address). */
  url: string;
  stop(): Promise<void>;
}

/**
 * The built app on a data directory of its own, reached as `localhost` with PUBLIC_URL to match: the
 * WebAuthn relying party id is the host of PUBLIC_URL, and the shared e2e server runs on 127.0.0.1.
 */
export async function startLocalhostServer(env: Record<string, string> = {}): Promise<LocalhostServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-e2e-2fa-'));
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ['dist/server/server.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: url, RATE_LIMITS: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Never outlive the test run, even when it is interrupted before afterAll.
  const killChild = () => child.kill('SIGTERM');
  process.once('exit', killChild);
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok).catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error('server did not become ready');
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
