import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { chromiumPath } from './scripts/chromium-path.mjs';

/**
 * End-to-end tests drive Debian's Chromium (never a downloaded browser) against the built app,
 * started the way `npm start` starts it, on a throwaway data directory. What each setting costs on CI's
 * two cores, and why it is set so, is in docs/decisions/0300-the-test-suite.md.
 */
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const E2E_BASE_URL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  // Spec files run side by side, one browser per core: each makes its own users and data on the one
  // shared server. The tests of one file keep their order unless the file says otherwise.
  fullyParallel: false,
  // A stray test.only must not silently shrink the suite in CI.
  forbidOnly: Boolean(process.env.CI),
  workers: Number(process.env.E2E_WORKERS ?? availableParallelism() + 1),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: E2E_BASE_URL,
    // Recording a trace of every test cost a tenth of the run; E2E_TRACE=retain-on-failure turns it on
    // when a failure needs one.
    trace: (process.env.E2E_TRACE as 'retain-on-failure' | undefined) ?? 'off',
    // Pages hold still unless a test is about motion (the ad's animation opts back in): a repeating
    // animation repaints every frame and kept the renderer busy between every step.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
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
    // SIGTERM, not Playwright's default SIGKILL: scripts/e2e-server.mjs then stops the app and removes its data directory.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    env: { PORT: String(PORT) },
  },
});
