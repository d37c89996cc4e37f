import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.js';
import { tooManyRequests } from '#server/errors.js';

export interface RateLimitRule {
  /** Counter namespace, e.g. `login:ip`. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in PostgreSQL, so every instance shares them (docs/architecture.md#principles).
 * One statement per hit: atomic under concurrency without a transaction.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly enabled: boolean,
  ) {}

  async hit(rule: RateLimitRule, subject: string): Promise<RateLimitResult> {
    if (!this.enabled) return { allowed: true, count: 0, retryAfterSeconds: 0 };
    const key = `${rule.name}:${subject}`;
    const result = await this.db.execute<{ count: number; retry_after: number }>(sql`
      INSERT INTO rate_limit_counters AS c (key, window_start, count)
      VALUES (${key}, now(), 1)
      ON CONFLICT (key) DO UPDATE SET
        window_start = CASE WHEN c.window_start <= now() - make_interval(secs => ${rule.windowSeconds})
                            THEN now() ELSE c.window_start END,
        count = CASE WHEN c.window_start <= now() - make_interval(secs => ${rule.windowSeconds})
                     THEN 1 ELSE c.count + 1 END
      RETURNING count,
        GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${rule.windowSeconds}) - now()))))::int AS retry_after
    `);
    const row = result.rows[0]!;
    return { allowed: row.count <= rule.limit, count: row.count, retryAfterSeconds: Number(row.retry_after) };
  }

  /** Counts a hit and throws 429 with Retry-After when over the limit. */
  async consume(rule: RateLimitRule, subject: string): Promise<void> {
    const result = await this.hit(rule, subject);
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
  }

  /** Refuses when the counter is already over the limit, without counting (for failure-only counters). */
  async assertUnder(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.enabled) return;
    const key = `${rule.name}:${subject}`;
    const result = await this.db.execute<{ count: number; retry_after: number }>(sql`
      SELECT count,
        GREATEST(1, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${rule.windowSeconds}) - now()))))::int AS retry_after
      FROM rate_limit_counters
      WHERE key = ${key} AND window_start > now() - make_interval(secs => ${rule.windowSeconds})
    `);
    const row = result.rows[0];
    if (row && row.count >= rule.limit) throw tooManyRequests(Number(row.retry_after));
  }

  /** Gives one counted hit back (an attempt counted before it turned out not to be a failure). */
  async release(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.enabled) return;
    await this.db.execute(sql`UPDATE rate_limit_counters SET count = count - 1 WHERE key = ${`${rule.name}:${subject}`} AND count > 0`);
  }

  async reset(rule: RateLimitRule, subject: string): Promise<void> {
    if (!this.enabled) return;
    await this.db.execute(sql`DELETE FROM rate_limit_counters WHERE key = ${`${rule.name}:${subject}`}`);
  }
}

/** The limits of docs/product.md#constants (rate limits). */
export const RATE_LIMITS = {
  loginPerIp: { name: 'login:ip', limit: 100, windowSeconds: 15 * 60 },
  /** Login attempts per account, cleared by a success: the 11th try after 10 failures within 15 minutes is refused. */
  loginFailuresPerAccount: { name: 'login-fail:account', limit: 10, windowSeconds: 15 * 60 },
  registerPerIp: { name: 'register:ip', limit: 10, windowSeconds: 60 * 60 },
  guestPerIp: { name: 'guest:ip', limit: 30, windowSeconds: 60 * 60 },
  passwordChangePerAccount: { name: 'password:account', limit: 5, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimitRule>;
