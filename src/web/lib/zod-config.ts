import type { $ZodConfig } from 'zod/v4/core';

// The shared schemas' zod compiles its object parsers with `new Function` where it can, and probes for
// that with `new Function('')` when the first schema is built. Our Content-Security-Policy forbids
// eval, so the probe can only fail, and the browser logs a CSP violation on every page that loads the
// schemas (DevTools' Issues panel; Lighthouse's Best Practices). Jitless mode skips the probe; parsing
// stays the interpreted path the CSP already forces. Zod reads this global when it loads (its source
// documents pre-populating it), so the entry bundle does not have to include any of zod.
const scope = globalThis as typeof globalThis & { __zod_globalConfig?: $ZodConfig };
Object.assign((scope.__zod_globalConfig ??= {}), { jitless: true });
