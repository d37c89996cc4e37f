// Which Debian Chromium the browser tests drive (never a downloaded browser): CHROMIUM_PATH when set,
// else Debian's headless shell (package chromium-headless-shell), else the full browser (package
// chromium). The headless shell draws pages without the full browser's window machinery: on CI's two
// cores it ran the same tests in two thirds of the time (docs/decisions/0300-the-test-suite.md).
import { existsSync } from 'node:fs';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'];

/** The browser to use; the first candidate when none is installed, so the caller can say what is missing. */
export function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return CHROMIUM_CANDIDATES.find((candidate) => existsSync(candidate)) ?? CHROMIUM_CANDIDATES[0];
}
