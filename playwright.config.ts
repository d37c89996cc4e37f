import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the built app,
 * started the way `npm start` starts it, on a throwaway data directory.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  // A stray test.only must not silently shrink the suite in CI.
  forbidOnly: Boolean(process.env.CI),
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `${E2E_BASE_URL}/readyz`,
    reuseExistingServer: false,
    // A busy machine can take longer to start the app; CI runs alone and keeps the default.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS ?? 120_000),
    stdout: 'ignore',
    stderr: 'pipe',
    env: { PORT: String(PORT) },
  },
});
