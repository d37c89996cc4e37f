import { and, asc, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '#server/db/client.js';
import { isUuid } from '#shared/schemas/common.js';
import { notFound } from '#server/errors.js';
import type { ExchangeService } from '#server/modules/exchange/exchange.service.js';
import { toExchangeDto } from '#server/modules/exchange/exchange.service.js';
import { exchanges } from '#server/modules/exchange/exchange.tables.js';
import { paymentEvents } from '#server/modules/payments/payment-events.tables.js';
import type { PaymentsService } from '#server/modules/payments/payments.service.js';
import { toPaymentDto } from '#server/modules/payments/payments.service.js';
import { payments } from '#server/modules/payments/payments.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';

async function usernames(db: DbOrTx, ids: Array<string | null>): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => Boolean(x)))];
  if (!wanted.length) return new Map();
  const rows = await db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.username]));
}

interface MoneyQuery {
  status?: string | undefined;
  currency?: string | undefined;
  userId?: string | undefined;
  user?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** The console's list query (admin.ts `adminPaymentListQuerySchema` / `adminExchangeListQuerySchema`). */
interface MoneyListQuery extends MoneyQuery {
  page: number;
  pageSize: number;
}

/** The console's "user" filter: a user id, or a username in any case. */
function userFilter(column: typeof payments.userId | typeof exchanges.userId, user: string | undefined): SQL | undefined {
  if (!user) return undefined;
  if (isUuid(user)) return eq(column, user.toLowerCase());
  return sql`${column} IN (SELECT ${users.id} FROM ${users} WHERE lower(${users.username}) = lower(${user}))`;
}

/** Day filters are whole UTC days: `to` includes its own day. */
function dateRange(column: typeof payments.createdAt | typeof exchanges.createdAt, q: MoneyQuery): SQL[] {
  const out: SQL[] = [];
  if (q.from) out.push(gte(column, new Date(`${q.from}T00:00:00Z`)));
  if (q.to) out.push(lt(column, new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86_400_000)));
  return out;
}

/** Operator console: payments and exchanges with filters, the provider's data, history and a re-check. */
export class AdminMoneyService {
  constructor(
    private readonly db: Db,
    private readonly services: { payments: PaymentsService; exchange: ExchangeService },
  ) {}

  // A re-check writes its own audit entry with the status before and after.
  private async auditRecheck(actorId: string, targetType: 'payment' | 'exchange', targetId: string, before: unknown, after: unknown) {
    const db = this.db;
    const actor = await findUserById(db, actorId);
    await recordAudit(db, {
      actor: { id: actorId, username: actor?.username ?? 'unknown' },
      action: `${targetType}.rechecked`,
      targetType,
      targetId,
      before,
      after,
    });
  }

  async listPayments(q: MoneyListQuery) {
    const db = this.db;
    const where = and(
      q.status ? eq(payments.status, q.status as never) : undefined,
      q.currency ? eq(payments.payCurrency, q.currency) : undefined,
      q.userId ? eq(payments.userId, q.userId) : undefined,
      userFilter(payments.userId, q.user),
      ...dateRange(payments.createdAt, q),
    );
    const rows = await db
      .select()
      .from(payments)
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const [total] = await db.select({ n: count() }).from(payments).where(where);
    const names = await usernames(
      db,
      rows.map((r) => r.userId),
    );
    return {
      payments: rows.map((r) => ({
        ...toPaymentDto(r),
        owner: { userId: r.userId, username: names.get(r.userId) ?? null, guestId: null },
        providerData: r.providerData ?? null,
      })),
      page: q.page,
      pageSize: q.pageSize,
      total: total?.n ?? 0,
    };
  }

  async paymentDetail(id: string) {
    const db = this.db;
    if (!isUuid(id)) throw notFound('Payment not found');
    const [row] = await db.select().from(payments).where(eq(payments.id, id)).limit(1);
    if (!row) throw notFound('Payment not found');
    const events = await db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, row.id)).orderBy(asc(paymentEvents.createdAt));
    const names = await usernames(db, [row.userId]);
    return {
      payment: {
        ...toPaymentDto(row),
        owner: { userId: row.userId, username: names.get(row.userId) ?? null, guestId: null },
        providerData: row.providerData ?? null,
      },
      events: events.map((e) => ({
        _id: e.id,
        source: e.source,
        providerStatus: e.providerStatus,
        statusBefore: e.statusBefore,
        statusAfter: e.statusAfter,
        creditedCents: e.creditedCents,
        body: e.body,
        createdAt: e.createdAt.toISOString(),
      })),
    };
  }

  /** Asks the provider about this payment now (credits once if it finished) and audits the change. */
  async recheckPayment(id: string, actorId: string) {
    const before = await this.paymentDetail(id);
    await this.services.payments.refreshFromProvider(before.payment._id, 'check');
    const after = await this.paymentDetail(id);
    await this.auditRecheck(
      actorId,
      'payment',
      after.payment._id,
      { status: before.payment.status, creditedAmount: before.payment.creditedAmount },
      { status: after.payment.status, creditedAmount: after.payment.creditedAmount },
    );
    return after;
  }

  async listExchanges(q: MoneyListQuery) {
    const db = this.db;
    const where = and(
      q.status ? eq(exchanges.status, q.status as never) : undefined,
      q.currency ? sql`(${exchanges.fromCurrency} = ${q.currency} OR ${exchanges.toCurrency} = ${q.currency})` : undefined,
      q.userId ? eq(exchanges.userId, q.userId) : undefined,
      q.user ? or(userFilter(exchanges.userId, q.user), eq(exchanges.guestId, q.user)) : undefined,
      ...dateRange(exchanges.createdAt, q),
    );
    const rows = await db
      .select()
      .from(exchanges)
      .where(where)
      .orderBy(desc(exchanges.createdAt), desc(exchanges.id))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    const [total] = await db.select({ n: count() }).from(exchanges).where(where);
    const names = await usernames(
      db,
      rows.map((r) => r.userId),
    );
    return {
      exchanges: rows.map((r) => ({
        ...toExchangeDto(r),
        owner: { userId: r.userId, username: r.userId ? (names.get(r.userId) ?? null) : null, guestId: r.guestId },
        providerData: r.providerData ?? null,
      })),
      page: q.page,
      pageSize: q.pageSize,
      total: total?.n ?? 0,
    };
  }

  private async exchangeRow(id: string) {
    if (!isUuid(id)) throw notFound('Exchange not found');
    const [row] = await this.db.select().from(exchanges).where(eq(exchanges.id, id)).limit(1);
    if (!row) throw notFound('Exchange not found');
    return row;
  }

  async exchangeDetail(id: string) {
    const row = await this.exchangeRow(id);
    const names = await usernames(this.db, [row.userId]);
    return {
      exchange: {
        ...toExchangeDto(row),
        owner: { userId: row.userId, username: row.userId ? (names.get(row.userId) ?? null) : null, guestId: row.guestId },
        providerData: row.providerData ?? null,
      },
    };
  }

  /** Asks the swap provider about this exchange now and audits the change. */
  async recheckExchange(id: string, actorId: string) {
    const before = await this.exchangeRow(id);
    await this.services.exchange.refreshFromProvider(before, 'poll');
    const after = await this.exchangeDetail(id);
    await this.auditRecheck(actorId, 'exchange', before.id, { status: before.status }, { status: after.exchange.status });
    return after;
  }
}
