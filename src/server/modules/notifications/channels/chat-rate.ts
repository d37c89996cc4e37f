import { sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.js';
import { chatRateSlots } from '#server/modules/notifications/chat-rate.tables.js';

/**
 * The per-chat send schedule in PostgreSQL, shared by every instance (decision 0266). Times are the
 * database's clock, so instances with skewed clocks still agree.
 */

/**
 * Reserves the next free moment for `key`, at least `spacingMs` after the one reserved before it, and
 * answers how long to wait until then. One statement decides, so concurrent senders (any instance) get
 * distinct moments.
 */
export async function reserveSlot(db: DbOrTx, key: string, spacingMs: number): Promise<number> {
  const spacing = sql`make_interval(secs => ${spacingMs / 1000})`;
  const result = await db.execute<{ wait_ms: string | number }>(sql`
    INSERT INTO ${chatRateSlots} (key, next_at) VALUES (${key}, clock_timestamp() + ${spacing})
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(${chatRateSlots.nextAt}, clock_timestamp()) + ${spacing}
    RETURNING greatest(0, extract(epoch FROM (next_at - ${spacing} - clock_timestamp())) * 1000) AS wait_ms`);
  return Math.ceil(Number(result.rows[0]?.wait_ms ?? 0));
}

/** How long until `key` is free again (0 when it is free now). */
export async function waitFor(db: DbOrTx, key: string): Promise<number> {
  const result = await db.execute<{ wait_ms: string | number }>(sql`
    SELECT greatest(0, extract(epoch FROM (next_at - clock_timestamp())) * 1000) AS wait_ms
    FROM ${chatRateSlots} WHERE key = ${key}`);
  return Math.ceil(Number(result.rows[0]?.wait_ms ?? 0));
}

/** Nothing may be sent for `key` for the next `ms` (the platform said so); never shortens a later hold. */
export async function holdFor(db: DbOrTx, key: string, ms: number): Promise<void> {
  const until = sql`clock_timestamp() + make_interval(secs => ${Math.max(0, ms) / 1000})`;
  await db.execute(sql`
    INSERT INTO ${chatRateSlots} (key, next_at) VALUES (${key}, ${until})
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(${chatRateSlots.nextAt}, ${until})`);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
