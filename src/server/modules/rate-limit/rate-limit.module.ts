import type { Db } from '#server/db/client.js';
import { RateLimiter } from './rate-limit.service.js';

/**
 * Rate limits kept in the database, so every instance counts the same window (decision 0004). The
 * limiter is a shared service of the context, built once by the core; `enabled: false` only for the
 * browser-test server.
 */
export function createRateLimitModule(db: Db, enabled: boolean): RateLimiter {
  return new RateLimiter(db, enabled);
}
