import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

export type DataExportRowStatus = 'pending' | 'ready' | 'failed';

/**
 * A requested copy of a user's data (decision 0250). The ZIP lives under ATTACHMENTS_DIR/exports by
 * `storage_key` (a random name); the prune job deletes file and row once `expires_at` has passed.
 */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status').$type<DataExportRowStatus>().notNull().default('pending'),
    progress: integer('progress').notNull().default(0),
    storageKey: text('storage_key'),
    sizeBytes: integer('size_bytes'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('data_exports_user_requested_idx').on(t.userId, t.requestedAt),
    index('data_exports_expires_idx').on(t.expiresAt),
    check('data_exports_status', sql`${t.status} IN ('pending', 'ready', 'failed')`),
    check('data_exports_progress', sql`${t.progress} BETWEEN 0 AND 100`),
    check(
      'data_exports_ready_has_file',
      sql`${t.status} <> 'ready' OR (${t.storageKey} IS NOT NULL AND ${t.readyAt} IS NOT NULL AND ${t.expiresAt} IS NOT NULL)`,
    ),
  ],
);
export type DataExportRow = typeof dataExports.$inferSelect;
