import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const WEB_DIST = path.join(ROOT, 'dist/web');

/**
 * The server serves the built app; without a build the tests of the page would prove nothing, so they
 * build it (the same `vite build` as `npm run build:web`) instead of being skipped. `npm test` builds first.
 */
export function ensureWebBuild(): void {
  if (existsSync(path.join(WEB_DIST, 'index.html'))) return;
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build into dist/web,
  // where the browser tests and `npm start` would then pick it up.
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build'], {
    cwd: ROOT,
    stdio: 'ignore',
    timeout: 240_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
