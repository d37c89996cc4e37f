import { desc, eq, inArray, isNull, or, gt, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  INCIDENT_IMPACT_STATE,
  STATUS_COMPONENT_IDS,
  STATUS_COMPONENT_NAMES,
  STATUS_HISTORY_DAYS,
  STATUS_STALE_AFTER_S,
  type ComponentState,
  type createIncidentBodySchema,
  type Incident,
  type IncidentImpact,
  type IncidentStatus,
  type Maintenance,
  type OverallState,
  type StatusComponentId,
  type StatusDay,
  type StatusResponse,
  type CurrentStatusResponse,
  type updateIncidentBodySchema,
  type createMaintenanceBodySchema,
  type updateMaintenanceBodySchema,
} from '#shared/schemas/status.js';
import type { Config } from '#server/config.js';
import type { Db, Database } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { impactName, incidentStatusName } from '#server/modules/mail/templates/status-subscription.js';
import { cancelMaintenance, createMaintenance, listMaintenance, updateMaintenance } from './maintenance-windows.js';
import { CHECK_TIMEOUT_MS, httpProbe, runProbe, type CheckResult, type Probe } from './status.checks.js';
import type { StatusSubscriptions } from './status-subscriptions.js';
import { statusIncidents, statusIncidentUpdates, type StatusIncidentRow, type StatusIncidentUpdateRow } from './status.tables.js';

export { maintenanceState } from './maintenance-windows.js';

type CreateIncident = z.output<typeof createIncidentBodySchema>;
type UpdateIncident = z.output<typeof updateIncidentBodySchema>;
type CreateMaintenance = z.output<typeof createMaintenanceBodySchema>;
type UpdateMaintenance = z.output<typeof updateMaintenanceBodySchema>;

/** Raw checks older than this are pruned; the daily roll-up keeps the history. */
const RAW_CHECK_RETENTION_DAYS = 7;

export interface StatusProbeDeps {
  config: Config;
  database: Database;
  /** This server's loopback URL (for the API probe and the mounted sandboxes). */
  selfUrl: () => string;
}

/**
 * The four probes of docs/product.md#status-page. The provider probes call the same base URLs the payment and
 * exchange clients use, so a misconfigured or unreachable provider shows here as it would to users.
 */
export function defaultProbes({ config, database, selfUrl }: StatusProbeDeps): Probe[] {
  return [
    // The HTTP stack of this process, through the same route load balancers use.
    httpProbe('api', () => `${selfUrl()}/healthz`),
    {
      component: 'database',
      async run() {
        await database.pool.query('SELECT 1');
        return { kind: 'ok' };
      },
    },
    // NOWPayments documents GET /status answering {"message":"OK"}.
    httpProbe('payment-provider', () => `${config.nowpayments.apiBase ?? `${selfUrl()}/sandbox/nowpayments/v1`}/status`, {
      headers: () => ({ 'x-api-key': config.nowpayments.apiKey }),
      looksHealthy: (body) => ((body as { message?: unknown } | null)?.message === 'OK' ? null : 'Status answer was not OK'),
    }),
    // ChangeNOW-style: the active currency list is what the exchange needs first.
    httpProbe('swap-provider', () => `${config.swap.apiBase ?? `${selfUrl()}/sandbox/swap/v1`}/currencies?active=true`, {
      looksHealthy: (body) => (Array.isArray(body) && body.length > 0 ? null : 'No active currencies listed'),
    }),
  ];
}

function toIncident(row: StatusIncidentRow, updates: StatusIncidentUpdateRow[]): Incident {
  return {
    _id: row.id,
    title: row.title,
    impact: row.impact as IncidentImpact,
    status: row.status as IncidentStatus,
    components: row.components.filter((c): c is StatusComponentId => (STATUS_COMPONENT_IDS as readonly string[]).includes(c)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    resolvedAt: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    updates: updates.map((u) => ({
      _id: u.id,
      status: u.status as IncidentStatus,
      message: u.message,
      createdAt: u.createdAt.toISOString(),
    })),
  };
}

/** Worse states rank higher. Maintenance outranks only "up" and "unknown" (checks may fail during it). */
const STATE_RANK: Record<OverallState, number> = { up: 0, unknown: 1, maintenance: 2, degraded: 3, down: 4 };
const worse = <S extends OverallState>(a: S, b: S): S => (STATE_RANK[b] > STATE_RANK[a] ? b : a);

/** A component's state: what its check found, made worse by each open incident naming it (decision 0230). */
const withIncidents = (id: StatusComponentId, checkState: ComponentState, open: Incident[]): ComponentState =>
  open.filter((i) => i.components.includes(id)).reduce<ComponentState>((s, i) => worse(s, INCIDENT_IMPACT_STATE[i.impact]), checkState);

function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export class StatusService {
  constructor(
    private readonly db: Db,
    private readonly probes: Probe[],
    private readonly options: { timeoutMs?: number; subscriptions?: StatusSubscriptions } = {},
  ) {}

  /** Runs every probe at once (each with its own timeout) and records the results. */
  async runChecks(): Promise<CheckResult[]> {
    const results = await Promise.all(this.probes.map((p) => runProbe(p, this.options.timeoutMs ?? CHECK_TIMEOUT_MS)));
    for (const r of results) await this.record(r);
    await this.db.execute(sql`DELETE FROM status_checks WHERE checked_at < now() - make_interval(days => ${RAW_CHECK_RETENTION_DAYS})`);
    await this.db.execute(sql`DELETE FROM status_daily WHERE day < (now() AT TIME ZONE 'UTC')::date - ${STATUS_HISTORY_DAYS + 1}::int`);
    return results;
  }

  /** The check and its day's counter in one statement, so the roll-up never disagrees with the checks. */
  private async record(r: CheckResult): Promise<void> {
    await this.db.execute(sql`
      WITH c AS (
        INSERT INTO status_checks (component, state, latency_ms, detail)
        VALUES (${r.component}, ${r.state}, ${r.latencyMs}, ${r.detail})
        RETURNING component, state, checked_at
      )
      INSERT INTO status_daily AS d (component, day, up_count, degraded_count, down_count)
      SELECT component, (checked_at AT TIME ZONE 'UTC')::date,
             (state = 'up')::int, (state = 'degraded')::int, (state = 'down')::int
      FROM c
      ON CONFLICT (component, day) DO UPDATE SET
        up_count = d.up_count + excluded.up_count,
        degraded_count = d.degraded_count + excluded.degraded_count,
        down_count = d.down_count + excluded.down_count
    `);
  }

  async report(now = new Date()): Promise<StatusResponse> {
    const latest = await this.db.execute<{
      component: string;
      state: string;
      latency_ms: number | null;
      detail: string | null;
      checked_at: Date;
    }>(sql`
      SELECT DISTINCT ON (component) component, state, latency_ms, detail, checked_at
      FROM status_checks ORDER BY component, checked_at DESC
    `);
    const daily = await this.db.execute<{
      component: string;
      day: string;
      up_count: number;
      degraded_count: number;
      down_count: number;
    }>(sql`
      SELECT component, to_char(day, 'YYYY-MM-DD') AS day, up_count, degraded_count, down_count
      FROM status_daily WHERE day > (now() AT TIME ZONE 'UTC')::date - ${STATUS_HISTORY_DAYS}::int
    `);

    const days: string[] = [];
    for (let i = STATUS_HISTORY_DAYS - 1; i >= 0; i -= 1) days.push(utcDay(new Date(now.getTime() - i * 86_400_000)));

    // Computed on every request from the incidents as they are now (the answer is sent `no-cache`), so
    // opening or resolving an incident shows on the next poll.
    const [incidents, maintenance] = await Promise.all([this.incidents(), this.maintenance(now)]);
    const open = incidents.filter((i) => i.status !== 'resolved');

    const components = STATUS_COMPONENT_IDS.map((id) => {
      const last = latest.rows.find((r) => r.component === id);
      const checkedAt = last ? new Date(last.checked_at) : null;
      const stale = !checkedAt || now.getTime() - checkedAt.getTime() > STATUS_STALE_AFTER_S * 1000;
      const byDay = new Map(daily.rows.filter((r) => r.component === id).map((r) => [r.day, r]));
      let answered = 0;
      let total = 0;
      let measuredDays = 0;
      const history: StatusDay[] = days.map((day) => {
        const row = byDay.get(day);
        const up = Number(row?.up_count ?? 0);
        const degraded = Number(row?.degraded_count ?? 0);
        const down = Number(row?.down_count ?? 0);
        const count = up + degraded + down;
        answered += up + degraded;
        total += count;
        if (count > 0) measuredDays += 1;
        return { day, up, degraded, down, uptimePercent: count > 0 ? roundPercent(((up + degraded) / count) * 100) : null };
      });
      const checkState = (stale ? 'unknown' : last!.state) as ComponentState;
      const state = withIncidents(id, checkState, open);
      return {
        id,
        name: STATUS_COMPONENT_NAMES[id],
        state,
        checkState,
        latencyMs: last?.latency_ms ?? null,
        detail: stale ? (checkedAt ? 'No recent check' : 'Not checked yet') : (last?.detail ?? null),
        checkedAt: checkedAt ? checkedAt.toISOString() : null,
        uptimePercent: total > 0 ? roundPercent((answered / total) * 100) : null,
        measuredDays,
        history,
      };
    });

    let overall: OverallState = components.reduce<OverallState>((worst, c) => worse(worst, c.state), 'up');
    // An incident naming no component concerns the whole product.
    for (const i of open) if (i.components.length === 0) overall = worse(overall, INCIDENT_IMPACT_STATE[i.impact]);
    if (maintenance.some((m) => m.state === 'in_progress')) overall = worse(overall, 'maintenance');
    return { overall, components, incidents, maintenance, generatedAt: now.toISOString() };
  }

  /**
   * What affects each component now: the latest check (unknown when stale) made worse by the open
   * incidents naming it, as the report's `state`, with the open incidents and the maintenance under way.
   */
  async current(now = new Date()): Promise<CurrentStatusResponse> {
    const latest = await this.db.execute<{ component: string; state: string; checked_at: Date }>(sql`
      SELECT DISTINCT ON (component) component, state, checked_at
      FROM status_checks ORDER BY component, checked_at DESC
    `);
    const [incidents, maintenance] = await Promise.all([this.incidents(), this.maintenance(now)]);
    const open = incidents.filter((i) => i.status !== 'resolved');
    const components = STATUS_COMPONENT_IDS.map((id) => {
      const last = latest.rows.find((r) => r.component === id);
      const stale = !last || now.getTime() - new Date(last.checked_at).getTime() > STATUS_STALE_AFTER_S * 1000;
      return { id, name: STATUS_COMPONENT_NAMES[id], state: withIncidents(id, stale ? 'unknown' : (last.state as ComponentState), open) };
    });
    return { components, incidents: open, maintenance: maintenance.filter((m) => m.state === 'in_progress') };
  }

  // ---- Maintenance windows (maintenance-windows.ts) ---------------------------------------------------

  maintenance(now = new Date()): Promise<Maintenance[]> {
    return listMaintenance(this.db, now);
  }

  createMaintenance(input: CreateMaintenance, staffUserId: string): Promise<Maintenance> {
    return createMaintenance(this.db, this.options.subscriptions, input, staffUserId);
  }

  updateMaintenance(id: string, change: UpdateMaintenance): Promise<Maintenance> {
    return updateMaintenance(this.db, this.options.subscriptions, id, change);
  }

  cancelMaintenance(id: string): Promise<void> {
    return cancelMaintenance(this.db, this.options.subscriptions, id);
  }

  // ---- Incidents -----------------------------------------------------------------------------------

  /** Open incidents and those resolved within the history window, newest first. */
  async incidents(): Promise<Incident[]> {
    const rows = await this.db
      .select()
      .from(statusIncidents)
      .where(
        or(isNull(statusIncidents.resolvedAt), gt(statusIncidents.resolvedAt, sql`now() - make_interval(days => ${STATUS_HISTORY_DAYS})`)),
      )
      .orderBy(desc(statusIncidents.createdAt))
      .limit(50);
    if (rows.length === 0) return [];
    const updates = await this.db
      .select()
      .from(statusIncidentUpdates)
      .where(
        inArray(
          statusIncidentUpdates.incidentId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(desc(statusIncidentUpdates.createdAt));
    return rows.map((row) =>
      toIncident(
        row,
        updates.filter((u) => u.incidentId === row.id),
      ),
    );
  }

  private async incident(id: string): Promise<Incident> {
    const [row] = await this.db.select().from(statusIncidents).where(eq(statusIncidents.id, id)).limit(1);
    if (!row) throw notFound('Incident not found');
    const updates = await this.db
      .select()
      .from(statusIncidentUpdates)
      .where(eq(statusIncidentUpdates.incidentId, id))
      .orderBy(desc(statusIncidentUpdates.createdAt));
    return toIncident(row, updates);
  }

  async createIncident(input: CreateIncident, staffUserId: string): Promise<Incident> {
    const id = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(statusIncidents)
        .values({
          title: input.title,
          impact: input.impact,
          status: input.status,
          components: input.components,
          createdBy: staffUserId,
          resolvedAt: input.status === 'resolved' ? new Date() : null,
        })
        .returning({ id: statusIncidents.id });
      await tx
        .insert(statusIncidentUpdates)
        .values({ incidentId: row!.id, status: input.status, message: input.message, createdBy: staffUserId });
      await this.options.subscriptions?.notify(tx, (tr) => ({
        subject: tr.t(/*i18n*/ 'Incident: {title}', { title: input.title }),
        heading: tr.t(/*i18n*/ 'New incident: {title}', { title: input.title }),
        facts: [
          [tr.t(/*i18n*/ 'Impact'), impactName(tr, input.impact)],
          [tr.t(/*i18n*/ 'Status'), incidentStatusName(tr, input.status)],
        ],
        message: input.message,
      }));
      return row!.id;
    });
    return this.incident(id);
  }

  async updateIncident(id: string, change: UpdateIncident, staffUserId: string): Promise<Incident> {
    await this.db.transaction(async (tx) => {
      const [current] = await tx.select().from(statusIncidents).where(eq(statusIncidents.id, id)).for('update').limit(1);
      if (!current) throw notFound('Incident not found');
      const status = change.status ?? (current.status as IncidentStatus);
      const set: Partial<typeof statusIncidents.$inferInsert> = { updatedAt: new Date() };
      if (change.title !== undefined) set.title = change.title;
      if (change.impact !== undefined) set.impact = change.impact;
      if (change.components !== undefined) set.components = change.components;
      if (change.status !== undefined) {
        set.status = change.status;
        // Reopening clears the resolution time; resolving again sets a new one.
        if (change.status === 'resolved' && current.status !== 'resolved') set.resolvedAt = new Date();
        if (change.status !== 'resolved') set.resolvedAt = null;
      }
      await tx.update(statusIncidents).set(set).where(eq(statusIncidents.id, id));
      const statusChanged = change.status !== undefined && change.status !== current.status;
      if (change.message !== undefined || statusChanged) {
        const message = change.message ?? `Status changed to ${status}.`;
        await tx.insert(statusIncidentUpdates).values({ incidentId: id, status, message, createdBy: staffUserId });
        const title = change.title ?? current.title;
        const impact = change.impact ?? (current.impact as IncidentImpact);
        await this.options.subscriptions?.notify(tx, (tr) => ({
          subject:
            status === 'resolved' ? tr.t(/*i18n*/ 'Resolved: {title}', { title }) : tr.t(/*i18n*/ 'Incident update: {title}', { title }),
          heading: status === 'resolved' ? tr.t(/*i18n*/ 'Resolved: {title}', { title }) : tr.t(/*i18n*/ 'Update: {title}', { title }),
          facts: [
            [tr.t(/*i18n*/ 'Impact'), impactName(tr, impact)],
            [tr.t(/*i18n*/ 'Status'), incidentStatusName(tr, status)],
          ],
          // The staff's words as written; the update a status change writes by itself, in the reader's language.
          message: change.message ?? tr.t(/*i18n*/ 'Status changed to {status}.', { status: incidentStatusName(tr, status) }),
        }));
      }
    });
    return this.incident(id);
  }
}

function roundPercent(value: number): number {
  return Math.round(value * 100) / 100;
}
