// Starts the built app as `npm start` would, on a fresh data directory, for the browser tests.
// Rate limits are off here only because every browser test signs in from the same address;
// the API tests exercise them.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

if (!existsSync('dist/server/server.js') || !existsSync('dist/web/index.html')) {
  console.error('The app is not built: run `npm run build` first (`npm test` does it when needed).');
  process.exit(1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-e2e-'));

// Staff accounts for the browser tests, made with the operator command as an operator would.
const staffAccounts = JSON.parse(readFileSync('e2e/support/staff-accounts.json', 'utf8'));
for (const account of Object.values(staffAccounts)) {
  execFileSync(
    process.execPath,
    ['dist/server/cli.js', 'create-user', '--username', account.username, '--password', account.password, '--role', account.role],
    { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'ignore', 'inherit'] },
  );
}
const child = spawn(process.execPath, ['dist/server/server.js'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    // The address the browser tests use, so provider redirects come back to the same origin.
    PUBLIC_URL: `http://127.0.0.1:${process.env.PORT ?? 3000}`,
    RATE_LIMITS: '0',
    // Webhook tests deliver to a receiver the test starts on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  },
});
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
