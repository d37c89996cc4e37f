// Starts the built app as `npm start` would, on a fresh data directory, for the browser tests.
// Rate limits are off here only because every browser test signs in from the same address;
// the API tests exercise them.
import { existsSync, readFileSync } from 'node:fs';
import { startBuiltServer } from './built-app.mjs';

if (!existsSync('dist/server/server.js') || !existsSync('dist/web/index.html')) {
  console.error('The app is not built: run `npm run build` first (`npm test` does it when needed).');
  process.exit(1);
}

/** @type {Awaited<ReturnType<typeof startBuiltServer>> | null} */
let server = null;
// Playwright stops this process with a signal; the server (and its directory) go with it, even mid-start.
const stop = () => (server ? void server.stop().then(() => process.exit(0)) : process.exit(143));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

const port = Number(process.env.PORT ?? 3000);
// Staff accounts for the browser tests, made with the operator command as an operator would.
const staffAccounts = JSON.parse(readFileSync('e2e/support/staff-accounts.json', 'utf8'));
try {
  server = await startBuiltServer({
    port,
    label: 'e2e server',
    users: Object.values(staffAccounts),
    captureOutput: false,
    // Playwright waits for /readyz with its own timeout (E2E_SERVER_TIMEOUT_MS).
    readyTimeoutMs: 30 * 60_000,
    env: {
      // The address the browser tests use, so provider redirects come back to the same origin.
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMITS: '0',
      // The browser tests' staff accounts sign in with a password alone; the server tests cover the
      // default, where staff must set up a second factor first.
      REQUIRE_STAFF_2FA: '0',
      // Webhook tests deliver to a receiver the test starts on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    },
  });
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
// The server ending by itself ends this process, with its code.
server.child.once('exit', (code) => void server?.kill().then(() => process.exit(code ?? 0)));
