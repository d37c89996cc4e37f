import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createMaintenanceBodySchema, Maintenance, MaintenanceState, updateMaintenanceBodySchema } from '#shared/schemas/status.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { badRequest, conflict, notFound } from '#server/errors.js';
import { noticeTime } from '#server/modules/mail/templates/status-subscription.js';
import type { StatusSubscriptions } from './status-subscriptions.js';
import { statusMaintenances, type StatusMaintenanceRow } from './status.tables.js';

/** Maintenance windows: what the page shows, and staff announcing, moving and cancelling them (subscribers told). */

type CreateMaintenance = z.output<typeof createMaintenanceBodySchema>;
type UpdateMaintenance = z.output<typeof updateMaintenanceBodySchema>;

/** Completed maintenance stays on the page (and in the feed) this long. */
const MAINTENANCE_KEPT_DAYS = 7;

export function maintenanceState(row: { startsAt: Date; endsAt: Date }, now: Date): MaintenanceState {
  if (now < row.startsAt) return 'scheduled';
  return now < row.endsAt ? 'in_progress' : 'completed';
}

function toMaintenance(row: StatusMaintenanceRow, now: Date): Maintenance {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    state: maintenanceState(row, now),
    createdAt: row.createdAt.toISOString(),
  };
}

/** Maintenance windows not over yet, and those ended within MAINTENANCE_KEPT_DAYS, soonest start first. */
export async function listMaintenance(db: Db, now = new Date()): Promise<Maintenance[]> {
  const rows = await db
    .select()
    .from(statusMaintenances)
    .where(
      and(
        isNull(statusMaintenances.cancelledAt),
        gt(statusMaintenances.endsAt, sql`now() - make_interval(days => ${MAINTENANCE_KEPT_DAYS})`),
      ),
    )
    .orderBy(asc(statusMaintenances.startsAt))
    .limit(50);
  return rows.map((r) => toMaintenance(r, now));
}

/** Announces a maintenance window; confirmed subscribers get a notice in the same transaction. */
export async function createMaintenance(
  db: Db,
  subscriptions: StatusSubscriptions | undefined,
  input: CreateMaintenance,
  staffUserId: string,
): Promise<Maintenance> {
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(statusMaintenances)
      .values({
        title: input.title,
        description: input.description,
        startsAt: new Date(input.startsAt),
        endsAt: new Date(input.endsAt),
        createdBy: staffUserId,
      })
      .returning();
    await subscriptions?.notify(tx, (tr) => ({
      subject: tr.t(/*i18n*/ 'Scheduled maintenance: {title}', { title: created!.title }),
      heading: tr.t(/*i18n*/ 'Scheduled maintenance: {title}', { title: created!.title }),
      facts: [
        [tr.t(/*i18n*/ 'Starts'), noticeTime(tr, created!.startsAt)],
        [tr.t(/*i18n*/ 'Ends'), noticeTime(tr, created!.endsAt)],
      ],
      message: created!.description,
    }));
    return created!;
  });
  return toMaintenance(row, new Date());
}

/** A window staff may still change: it exists, is not cancelled and is not over (409 otherwise). Locked. */
async function changeableMaintenance(tx: DbOrTx, id: string, now: Date): Promise<StatusMaintenanceRow> {
  const [row] = await tx.select().from(statusMaintenances).where(eq(statusMaintenances.id, id)).for('update').limit(1);
  if (!row) throw notFound('Unknown maintenance');
  if (row.cancelledAt) throw conflict('This maintenance was cancelled.');
  if (maintenanceState(row, now) === 'completed') throw conflict('This maintenance is over and can no longer be changed.');
  return row;
}

/** Edits a window not over yet; subscribers are told when its start or end moves. */
export async function updateMaintenance(
  db: Db,
  subscriptions: StatusSubscriptions | undefined,
  id: string,
  change: UpdateMaintenance,
): Promise<Maintenance> {
  const now = new Date();
  const row = await db.transaction(async (tx) => {
    const current = await changeableMaintenance(tx, id, now);
    const startsAt = change.startsAt ? new Date(change.startsAt) : current.startsAt;
    const endsAt = change.endsAt ? new Date(change.endsAt) : current.endsAt;
    if (endsAt <= startsAt) throw badRequest('The end must be after the start', { fields: { endsAt: 'The end must be after the start' } });
    const [updated] = await tx
      .update(statusMaintenances)
      .set({ title: change.title ?? current.title, description: change.description ?? current.description, startsAt, endsAt })
      .where(eq(statusMaintenances.id, id))
      .returning();
    if (startsAt.getTime() !== current.startsAt.getTime() || endsAt.getTime() !== current.endsAt.getTime()) {
      await subscriptions?.notify(tx, (tr) => ({
        subject: tr.t(/*i18n*/ 'Maintenance rescheduled: {title}', { title: updated!.title }),
        heading: tr.t(/*i18n*/ 'Maintenance rescheduled: {title}', { title: updated!.title }),
        facts: [
          [tr.t(/*i18n*/ 'Starts'), noticeTime(tr, startsAt)],
          [tr.t(/*i18n*/ 'Ends'), noticeTime(tr, endsAt)],
          [
            tr.t(/*i18n*/ 'Was'),
            tr.t(/*i18n*/ '{start} to {end}', { start: noticeTime(tr, current.startsAt), end: noticeTime(tr, current.endsAt) }),
          ],
        ],
        message: updated!.description,
      }));
    }
    return updated!;
  });
  return toMaintenance(row, now);
}

/** Cancels a window not over yet: it leaves the page and the feed, and subscribers are told. */
export async function cancelMaintenance(db: Db, subscriptions: StatusSubscriptions | undefined, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await changeableMaintenance(tx, id, new Date());
    await tx.update(statusMaintenances).set({ cancelledAt: new Date() }).where(eq(statusMaintenances.id, id));
    await subscriptions?.notify(tx, (tr) => ({
      subject: tr.t(/*i18n*/ 'Maintenance cancelled: {title}', { title: current.title }),
      heading: tr.t(/*i18n*/ 'Maintenance cancelled: {title}', { title: current.title }),
      facts: [
        [
          tr.t(/*i18n*/ 'Was planned'),
          tr.t(/*i18n*/ '{start} to {end}', { start: noticeTime(tr, current.startsAt), end: noticeTime(tr, current.endsAt) }),
        ],
      ],
      message: tr.t(/*i18n*/ 'This maintenance window will not take place.'),
    }));
  });
}
