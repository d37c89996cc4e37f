import { translatorFor } from '#server/i18n/translator.js';
import path from 'node:path';
import { and, desc, eq, gt, inArray, isNotNull, lt, ne, or, sql } from 'drizzle-orm';
import { DATA_EXPORT_INTERVAL_HOURS, DATA_EXPORT_TTL_DAYS, type DataExport, type DataExportStatus } from '#shared/schemas/privacy.js';
import { isUuid } from '#shared/schemas/common.js';
import { settingsPath } from '#shared/routes.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import type { MailService } from '#server/modules/mail/mail.service.js';
import { dataExportReadyMail } from '#server/modules/mail/templates/data-export-ready.js';
import { AttachmentStore } from '#server/modules/support/tickets/attachments.js';
import { users } from '#server/modules/users/users.tables.js';
import { exportEntries } from './export-entries.js';
import { dataExports, type DataExportRow } from './privacy.tables.js';
import { zipStream } from './zip-stream.js';

// The files of the ZIP are made in export-entries.ts (one file per part of the copy), the ZIP itself in
// zip-stream.ts; both are exported from here too, so callers keep importing this file.
export { exportEntries } from './export-entries.js';
export type { ExportEntry } from './export-format.js';
export { zipStream } from './zip-stream.js';

/**
 * The export is built as a task of the mail queue (background work that ends in a mail), not a queue of
 * its own: every pg-boss queue is a partition table made at start, slow on the embedded database.
 */
export const DATA_EXPORT_TASK = 'privacy.export';

export interface DataExportDeps {
  db: DbOrTx;
  mail: MailService;
  /** ATTACHMENTS_DIR: ticket files are read from it, the exports are kept in its `exports` folder. */
  attachmentsDir: string;
}

export const exportStore = (attachmentsDir: string) => new AttachmentStore(path.join(attachmentsDir, 'exports'));

/** What a row is now: a ready export past its 7 days is `expired` (its file is deleted by the prune job). */
function statusOf(row: DataExportRow, now = new Date()): DataExportStatus {
  if (row.status === 'ready' && row.expiresAt && row.expiresAt <= now) return 'expired';
  return row.status;
}

export function toDataExportDto(row: DataExportRow): DataExport {
  const status = statusOf(row);
  return {
    exportId: row.id,
    status,
    progress: status === 'pending' ? row.progress : 100,
    requestedAt: row.requestedAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    sizeBytes: status === 'ready' ? row.sizeBytes : null,
    nextRequestAt: new Date(row.requestedAt.getTime() + DATA_EXPORT_INTERVAL_HOURS * 60 * 60 * 1000).toISOString(),
  };
}

/**
 * POST /api/users/me/export: one export a day (docs/product.md#privacy). Under the user's row lock, so
 * two requests at once make one export; the job is queued on the same transaction. A failed export does
 * not count against the day.
 */
export async function requestDataExport(deps: Pick<DataExportDeps, 'db' | 'mail'>, userId: string): Promise<{ exportId: string }> {
  return deps.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`);
    const [recent] = await tx
      .select()
      .from(dataExports)
      .where(
        and(
          eq(dataExports.userId, userId),
          ne(dataExports.status, 'failed'),
          gt(dataExports.requestedAt, sql`now() - make_interval(hours => ${DATA_EXPORT_INTERVAL_HOURS})`),
        ),
      )
      .orderBy(desc(dataExports.requestedAt))
      .limit(1);
    if (recent) {
      const next = new Date(recent.requestedAt.getTime() + DATA_EXPORT_INTERVAL_HOURS * 60 * 60 * 1000);
      const retryAfter = Math.max(1, Math.ceil((next.getTime() - Date.now()) / 1000));
      throw new AppError(
        'EXPORT_ALREADY_REQUESTED',
        `You can ask for one copy of your data a day. The next one can be requested after ${next.toUTCString()}.`,
        {
          details: { exportId: recent.id, nextRequestAt: next.toISOString() },
          retryAfter,
        },
      );
    }
    const [row] = await tx.insert(dataExports).values({ userId }).returning({ id: dataExports.id });
    await deps.mail.runTask(DATA_EXPORT_TASK, { exportId: row!.id }, { tx: tx as Tx });
    return { exportId: row!.id };
  });
}

async function ownExport(db: DbOrTx, userId: string, exportId: string): Promise<DataExportRow> {
  if (!isUuid(exportId)) throw notFound('Export not found');
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, userId)))
    .limit(1);
  if (!row) throw notFound('Export not found');
  return row;
}

/** GET /api/users/me/exports/{id}: someone else's export, or none, is the same 404. */
export async function getDataExport(db: DbOrTx, userId: string, exportId: string): Promise<DataExport> {
  return toDataExportDto(await ownExport(db, userId, exportId));
}

/** My most recent export still worth showing (requested within the last 7 days), or null. */
export async function latestDataExport(db: DbOrTx, userId: string): Promise<DataExport | null> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), gt(dataExports.requestedAt, sql`now() - make_interval(days => ${DATA_EXPORT_TTL_DAYS})`)))
    .orderBy(desc(dataExports.requestedAt))
    .limit(1);
  return row ? toDataExportDto(row) : null;
}

/** The ZIP as a stream and its size (never read whole: decision 0308), for the owner, while the export is ready (409 while pending, 410 once expired). */
export async function openDataExport(deps: Pick<DataExportDeps, 'db' | 'attachmentsDir'>, userId: string, exportId: string) {
  const row = await ownExport(deps.db, userId, exportId);
  const status = statusOf(row);
  if (status === 'expired') throw new AppError('EXPORT_EXPIRED', 'This copy of your data has expired. Request a new one.');
  if (status !== 'ready' || !row.storageKey) throw new AppError('EXPORT_NOT_READY', 'This copy of your data is not ready yet.');
  const file = await exportStore(deps.attachmentsDir)
    .openStream(row.storageKey)
    .catch(() => {
      throw new AppError('EXPORT_EXPIRED', 'This copy of your data is no longer available. Request a new one.');
    });
  return { ...file, filename: `olympus-data-${row.requestedAt.toISOString().slice(0, 10)}.zip` };
}

/**
 * The job: builds the ZIP, stores it, marks the export ready and queues the "ready" mail on the same
 * transaction. A second run of a finished export does nothing. A run that fails marks the export
 * failed (it then does not count against the day, so the person can ask again) and rethrows for the
 * log; a run killed half way leaves it pending, and pg-boss runs it again once the job expires.
 */
export async function buildDataExport(deps: DataExportDeps, exportId: string): Promise<void> {
  const { db } = deps;
  const [row] = await db.select().from(dataExports).where(eq(dataExports.id, exportId)).limit(1);
  if (!row || row.status !== 'pending') return;
  const store = exportStore(deps.attachmentsDir);
  let key: string | null = null;
  try {
    const entries = exportEntries(db, new AttachmentStore(deps.attachmentsDir), row.userId, async (progress) => {
      await db
        .update(dataExports)
        .set({ progress })
        .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
    });
    const saved = await store.saveStream(zipStream(entries, new Date()));
    key = saved.key;
    const savedKey = key;
    const done = await db.transaction(async (tx) => {
      const [updated] = await tx
        .update(dataExports)
        .set({
          status: 'ready',
          progress: 100,
          storageKey: savedKey,
          sizeBytes: saved.size,
          readyAt: sql`now()`,
          expiresAt: sql`now() + make_interval(days => ${DATA_EXPORT_TTL_DAYS})`,
        })
        .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')))
        .returning();
      if (!updated) return false;
      const [user] = await tx
        .select({ username: users.username, email: users.email, locale: users.locale })
        .from(users)
        .where(eq(users.id, updated.userId))
        .limit(1);
      if (user) {
        await deps.mail.queueSafely(tx, {
          userId: updated.userId,
          kind: 'data_export_ready',
          to: user.email,
          mail: dataExportReadyMail(translatorFor(user.locale), {
            username: user.username,
            expires: translatorFor(user.locale).dateTime(updated.expiresAt!),
            settingsUrl: deps.mail.link(settingsPath('privacy')),
          }),
        });
      }
      return true;
    });
    if (!done) await store.remove(savedKey); // another run finished it first
  } catch (err) {
    if (key) await store.remove(key);
    await db
      .update(dataExports)
      .set({ status: 'failed' })
      .where(and(eq(dataExports.id, exportId), eq(dataExports.status, 'pending')));
    throw err;
  }
}

/**
 * Deletes exports past their 7 days (the file first, then the row), exports that failed, and requests
 * left pending for 7 days. Called by the prune job (README "How long we keep things").
 */
export async function pruneDataExports(db: DbOrTx, attachmentsDir: string): Promise<number> {
  const store = exportStore(attachmentsDir);
  const old = await db
    .select({ id: dataExports.id, storageKey: dataExports.storageKey })
    .from(dataExports)
    .where(
      or(
        and(isNotNull(dataExports.expiresAt), lt(dataExports.expiresAt, sql`now()`)),
        and(ne(dataExports.status, 'ready'), lt(dataExports.requestedAt, sql`now() - make_interval(days => ${DATA_EXPORT_TTL_DAYS})`)),
      ),
    );
  for (const row of old) if (row.storageKey) await store.remove(row.storageKey);
  if (old.length === 0) return 0;
  const deleted = await db.delete(dataExports).where(
    inArray(
      dataExports.id,
      old.map((r) => r.id),
    ),
  );
  return deleted.rowCount ?? old.length;
}
