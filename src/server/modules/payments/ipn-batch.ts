import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { PaymentStatus } from '#shared/schemas/payments.js';
import type { Db, Tx } from '#server/db/client.js';
import { creditDebts } from '#server/modules/credits/credits.tables.js';
import { noteUserChanging } from '#server/modules/users/user-read-cache.js';
import { users } from '#server/modules/users/users.tables.js';
import type { DomainEvent, DomainEvents } from '#server/events/domain-events.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import { creditDue, decimalString, ipnMismatches, nextStatus, REVERSAL_STATUSES } from './payment-rules.js';
import { payments, type PaymentRow } from './payments.tables.js';

/** The most IPNs one batch (one transaction) carries. */
export const MAX_IPN_BATCH = 200;
/**
 * Batches written at the same time by one instance. More than one, so that a small batch (the one IPN
 * that arrived while a large batch was written) does not hold up the large one forming behind it.
 */
export const MAX_BATCHES_IN_FLIGHT = 3;

export interface IpnOutcome {
  status: PaymentStatus;
}

interface Waiting {
  providerId: string;
  body: NowPaymentsPayment;
  resolve: (outcome: IpnOutcome) => void;
  reject: (err: unknown) => void;
}

interface Applied {
  w: Waiting;
  paymentId: string;
  from: PaymentStatus;
  to: PaymentStatus;
  creditedCents: number;
}

export interface IpnBatcherDeps {
  db: Db;
  log: FastifyBaseLogger;
  /** Where the batch's changes are reported, all at once (emitMany). */
  events: DomainEvents;
  /** Drops a payment's cached status; called before the batch commits. */
  forget: (paymentId: string) => void;
  /** The single-IPN path (PaymentsService.handleIpn): anything unusual, and a failed batch's IPNs. */
  single: (body: NowPaymentsPayment) => Promise<IpnOutcome>;
}

/**
 * Signed IPNs applied together (group commit, docs/decisions/0191). Each verified IPN joins the batch
 * being formed; one batch is written at a time per instance, in one transaction, and whatever arrives
 * meanwhile forms the next (up to MAX_IPN_BATCH). No timer: an idle server applies an IPN at once.
 * Each IPN is answered only after its batch has committed, so a 200 always means "durably applied".
 *
 * The batch takes only the common case: a known payment of ours (not a re-deposit), matching the IPN,
 * no reversal, its user owing nothing, first of its payment in the batch. Everything else goes through
 * the single path (`handleIpn`) after the batch commits, unchanged. If the batch fails for any reason,
 * each of its IPNs is applied on its own: the ledger's unique reference makes that retry safe.
 *
 * Locks are taken as the single path takes them, payment then user, each set in id order: no deadlock
 * with reconciliation, refunds, orders or another instance's batch.
 */
export class IpnBatcher {
  private forming: Waiting[] = [];
  private inFlight = 0;

  constructor(private readonly deps: IpnBatcherDeps) {}

  submit(body: NowPaymentsPayment): Promise<IpnOutcome> {
    const providerId = body.payment_id != null ? String(body.payment_id) : '';
    // No id (refused there) or a re-deposit (creates its payment): the single path.
    if (!providerId || body.parent_payment_id != null) return this.deps.single(body);
    return new Promise((resolve, reject) => {
      this.forming.push({ providerId, body, resolve, reject });
      if (this.inFlight < MAX_BATCHES_IN_FLIGHT) void this.writeNext();
    });
  }

  /** One writer: writes what has formed, then what formed meanwhile, until nothing is waiting. */
  private async writeNext(): Promise<void> {
    this.inFlight++;
    try {
      while (this.forming.length > 0) {
        const batch = this.forming.splice(0, MAX_IPN_BATCH);
        await this.write(batch);
      }
    } finally {
      this.inFlight--;
    }
  }

  private runSingle(w: Waiting): void {
    this.deps.single(w.body).then(w.resolve, w.reject);
  }

  private async write(batch: Waiting[]): Promise<void> {
    // The first IPN of each payment is in the batch; later ones go the single way after the commit.
    const firsts = new Map<string, Waiting>();
    const later: Waiting[] = [];
    for (const w of batch) {
      if (firsts.has(w.providerId)) later.push(w);
      else firsts.set(w.providerId, w);
    }
    const deferred: Waiting[] = [];
    let applied: Applied[];
    try {
      applied = await this.deps.db.transaction((tx) => this.apply(tx, [...firsts.values()], deferred));
    } catch (err) {
      this.deps.log.warn({ err, ipns: batch.length }, 'IPN batch failed; its IPNs are applied one by one');
      for (const w of batch) this.runSingle(w);
      return;
    }
    for (const a of applied) {
      if (a.from !== a.to) {
        this.deps.log.info(
          { paymentId: a.paymentId, from: a.from, to: a.to, creditedCents: a.creditedCents, source: 'ipn' },
          'payment status changed',
        );
      }
      a.w.resolve({ status: a.to });
    }
    for (const w of deferred) this.runSingle(w);
    for (const w of later) this.runSingle(w);
  }

  /** One batch in one transaction; IPNs it does not take are pushed to `deferred`. */
  private async apply(tx: Tx, list: Waiting[], deferred: Waiting[]): Promise<Applied[]> {
    const rows = await tx
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, 'nowpayments'),
          inArray(
            payments.providerPaymentId,
            list.map((w) => w.providerId),
          ),
        ),
      )
      .orderBy(payments.id)
      .for('update');
    const byProviderId = new Map(rows.map((r) => [r.providerPaymentId!, r]));

    interface Plan {
      w: Waiting;
      row: PaymentRow;
      incoming: string;
      status: PaymentStatus;
      actuallyPaid: string | null;
      due: ReturnType<typeof creditDue>;
    }
    let plans: Plan[] = [];
    for (const w of list) {
      const row = byProviderId.get(w.providerId);
      const incoming = String(w.body.payment_status ?? '');
      if (
        !row ||
        row.parentPaymentId ||
        REVERSAL_STATUSES[row.status] ||
        REVERSAL_STATUSES[incoming as PaymentStatus] ||
        ipnMismatches(row, w.body).length > 0
      ) {
        deferred.push(w);
        continue;
      }
      const status = nextStatus(row.status, incoming);
      const actuallyPaid = decimalString(w.body.actually_paid) ?? row.actuallyPaid;
      plans.push({ w, row, incoming, status, actuallyPaid, due: creditDue(row, status, actuallyPaid) });
    }

    // The users credited: locked (id order), and left to the single path if they owe (settlement) or are
    // closing or erased.
    const creditUserIds = [...new Set(plans.filter((p) => p.due.cents > 0).map((p) => p.row.userId))].sort();
    const balances = new Map<string, number>();
    if (creditUserIds.length > 0) {
      const locked = await tx
        .select({ id: users.id, creditsCents: users.creditsCents, closingAt: users.closingAt, erasedAt: users.erasedAt })
        .from(users)
        .where(inArray(users.id, creditUserIds))
        .orderBy(users.id)
        .for('update');
      // A closing or erased account is the single path's (decision 0305: the closure is held, or the
      // credits written off and the payment queued for a refund).
      for (const u of locked) if (!u.closingAt && !u.erasedAt) balances.set(u.id, u.creditsCents);
      // After the lock: a reversal (which locks the user first) has committed its debt by now.
      const owing = await tx
        .selectDistinct({ userId: creditDebts.userId })
        .from(creditDebts)
        .where(and(inArray(creditDebts.userId, creditUserIds), gt(creditDebts.outstandingCents, 0)));
      for (const o of owing) balances.delete(o.userId);
      plans = plans.filter((p) => {
        if (p.due.cents === 0 || balances.has(p.row.userId)) return true;
        deferred.push(p.w);
        return false;
      });
    }
    if (plans.length === 0) return [];

    // Ledger entries, chained per user in batch order.
    const credits = plans.filter((p) => p.due.cents > 0);
    const values = credits.map((p) => {
      const balanceAfter = balances.get(p.row.userId)! + p.due.cents;
      balances.set(p.row.userId, balanceAfter);
      return {
        userId: p.row.userId,
        amountCents: p.due.cents,
        balanceAfterCents: balanceAfter,
        reference: p.due.reference,
        description: p.due.description,
        metadata: { paymentId: p.row.id, providerPaymentId: p.row.providerPaymentId, source: 'ipn' },
      };
    });
    const entries = new Map<string, { id: string; createdAt: string }>();
    if (values.length > 0) {
      // Rows in batch order, each stamped at its insertion (clock_timestamp), as postLedgerEntry does.
      const inserted = await tx.execute<{ id: string; reference: string; created_at: string }>(sql`
        INSERT INTO credit_ledger_entries (user_id, amount_cents, balance_after_cents, kind, reference, description, actor_id, metadata, created_at)
        SELECT v.user_id, v.amount, v.balance_after, 'payment', v.reference, v.description, NULL, v.metadata::jsonb, clock_timestamp()
        FROM unnest(
          ${sql.param(values.map((v) => v.userId))}::uuid[], ${sql.param(values.map((v) => v.amountCents))}::bigint[],
          ${sql.param(values.map((v) => v.balanceAfterCents))}::bigint[], ${sql.param(values.map((v) => v.reference))}::text[],
          ${sql.param(values.map((v) => v.description))}::text[], ${sql.param(values.map((v) => JSON.stringify(v.metadata)))}::text[]
        ) WITH ORDINALITY AS v(user_id, amount, balance_after, reference, description, metadata, n)
        ORDER BY v.n
        ON CONFLICT (reference) DO NOTHING
        RETURNING id, reference, to_json(created_at) #>> '{}' AS created_at`);
      for (const e of inserted.rows) entries.set(e.reference, { id: e.id, createdAt: e.created_at });
      // A reference already posted: the single path knows what to answer (a repeat, or a conflict).
      if (entries.size !== values.length) throw new Error('IPN batch met a ledger reference already posted');
      const userIds = [...new Set(credits.map((p) => p.row.userId))];
      for (const id of userIds) noteUserChanging(id);
      await tx.execute(sql`
        UPDATE users AS u SET credits_cents = v.cents, updated_at = now()
        FROM unnest(${sql.param(userIds)}::uuid[], ${sql.param(userIds.map((id) => balances.get(id)!))}::bigint[]) AS v(id, cents)
        WHERE u.id = v.id`);
    }

    // The payments, their events, and what is told about them.
    const told: DomainEvent[] = [];
    const applied: Applied[] = [];
    const update = {
      ids: [] as string[],
      status: [] as string[],
      credited: [] as number[],
      paid: [] as (string | null)[],
      data: [] as string[],
      changed: [] as boolean[],
    };
    let balanceIndex = 0;
    for (const p of plans) {
      const { row } = p;
      let credited = row.creditedCents;
      if (p.due.cents > 0) {
        const value = values[balanceIndex++]!;
        const entry = entries.get(p.due.reference)!;
        told.push({
          type: 'credits.changed',
          userId: row.userId,
          entry: {
            id: entry.id,
            kind: 'payment',
            amountCents: value.amountCents,
            reference: value.reference,
            description: value.description,
            createdAt: new Date(entry.createdAt),
          },
          balanceCents: value.balanceAfterCents,
        });
        credited = p.due.target;
      }
      let status = p.status;
      if (status === 'finished' && credited === row.creditsCents) status = 'completed';
      const paidChanged = Number(p.actuallyPaid ?? 0) !== Number(row.actuallyPaid ?? 0);
      const changed = status !== row.status || credited !== row.creditedCents || paidChanged;
      this.deps.forget(row.id);
      update.ids.push(row.id);
      update.status.push(status);
      update.credited.push(credited);
      update.paid.push(p.actuallyPaid);
      update.data.push(JSON.stringify(p.w.body));
      update.changed.push(changed);
      if (status !== row.status) {
        told.push({
          type: 'payment.changed',
          userId: row.userId,
          payment: { id: row.id, priceAmountCents: row.priceAmountCents, feeCents: row.feeCents, payCurrency: row.payCurrency },
          from: row.status,
          to: status,
          creditedCents: credited,
          refundQueued: false,
        });
      }
      applied.push({ w: p.w, paymentId: row.id, from: row.status, to: status, creditedCents: credited });
    }
    await tx.execute(sql`
      UPDATE payments AS p SET
        status = v.status,
        credited_cents = v.credited,
        actually_paid = v.paid,
        provider_data = CASE WHEN v.changed THEN v.data::jsonb ELSE p.provider_data END,
        last_checked_at = now(),
        completed_at = CASE WHEN v.status = 'completed' AND p.completed_at IS NULL THEN now() ELSE p.completed_at END,
        updated_at = CASE WHEN v.changed THEN now() ELSE p.updated_at END
      FROM unnest(
        ${sql.param(update.ids)}::uuid[], ${sql.param(update.status)}::text[], ${sql.param(update.credited)}::bigint[],
        ${sql.param(update.paid)}::text[], ${sql.param(update.data)}::text[], ${sql.param(update.changed)}::bool[]
      ) AS v(id, status, credited, paid, data, changed)
      WHERE p.id = v.id`);
    await tx.execute(sql`
      INSERT INTO payment_events (payment_id, source, provider_status, status_before, status_after, credited_cents, body)
      SELECT v.payment_id, 'ipn', v.provider_status, v.status_before, v.status_after, v.credited, v.body::jsonb
      FROM unnest(
        ${sql.param(update.ids)}::uuid[], ${sql.param(plans.map((p) => p.incoming))}::text[],
        ${sql.param(plans.map((p) => p.row.status))}::text[], ${sql.param(update.status)}::text[],
        ${sql.param(plans.map((p, i) => update.credited[i]! - p.row.creditedCents))}::bigint[], ${sql.param(update.data)}::text[]
      ) WITH ORDINALITY AS v(payment_id, provider_status, status_before, status_after, credited, body, n)
      ORDER BY v.n`);
    await this.deps.events.emitMany(tx, told);
    return applied;
  }
}
