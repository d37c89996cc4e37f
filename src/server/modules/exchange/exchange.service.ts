import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { isUuid } from '#shared/schemas/common.js';
import type {
  CreateExchangeBody,
  EstimateResponse,
  ExchangeCurrency,
  ExchangeRangeResponse,
  MyExchangesQuery,
  RateType,
} from '#shared/schemas/exchange.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import type { RateLimitRule } from '#server/modules/rate-limit/rate-limit.service.js';
import { createExchange } from './exchange-create.js';
import type { ExchangeServiceDeps, UpdateSource } from './exchange-deps.js';
import { ExchangeQuotes } from './exchange-quotes.js';
import type { ExchangeOwner } from './exchange-rows.js';
import { ExchangeSync, UNFINISHED_STATUSES } from './exchange-sync.js';
import { exchanges, type ExchangeRow } from './exchange.tables.js';
import type { SwapTransaction } from './swap.client.js';

export type { ExchangeServiceDeps, UpdateSource } from './exchange-deps.js';
export { toExchangeDto, type ExchangeOwner } from './exchange-rows.js';
export { nextExchangeStatus, UNFINISHED_STATUSES } from './exchange-sync.js';

/** Reading an unfinished exchange asks the provider again when the last answer is older than this. */
const READ_REFRESH_MS = 10_000;

export const EXCHANGE_LIMITS = {
  createPerIp: { name: 'exchange-create:ip', limit: 30, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export class ExchangeService {
  // The module's one entry point: routes, jobs, guest claims, admin and the sandbox call this class, and
  // it hands each call to the file of its concern. The currency cache lives in ExchangeQuotes, built here
  // once per instance.
  private readonly quotes: ExchangeQuotes;
  private readonly sync: ExchangeSync;

  constructor(private readonly deps: ExchangeServiceDeps) {
    this.quotes = new ExchangeQuotes(deps);
    this.sync = new ExchangeSync(deps);
  }

  get rewardPercent(): number {
    return this.deps.rewardPercent;
  }

  // ---- Currencies, limits and estimates (exchange-quotes.ts) ----

  listCurrencies(): Promise<ExchangeCurrency[]> {
    return this.quotes.listCurrencies();
  }

  range(from: string, to: string, rateType: RateType): Promise<ExchangeRangeResponse> {
    return this.quotes.range(from, to, rateType);
  }

  usdValueCents(from: string, amount: number): Promise<number> {
    return this.quotes.usdValueCents(from, amount);
  }

  estimate(from: string, to: string, amount: number, rateType: RateType = 'floating'): Promise<EstimateResponse> {
    return this.quotes.estimate(from, to, amount, rateType);
  }

  // ---- Creating an exchange (exchange-create.ts) ----

  create(owner: ExchangeOwner, body: CreateExchangeBody): Promise<{ row: ExchangeRow; claimCode: string | null }> {
    return createExchange(this.deps, this.quotes, owner, body);
  }

  // ---- The caller's own exchanges ----

  private ownerFilter(owner: ExchangeOwner) {
    return owner.kind === 'user' ? eq(exchanges.userId, owner.userId) : and(eq(exchanges.guestId, owner.guestId), isNull(exchanges.userId));
  }

  /** The caller's own exchange (asking the provider again when the last answer is stale), or 404. */
  async getOwn(owner: ExchangeOwner, exchangeId: string): Promise<ExchangeRow> {
    if (!isUuid(exchangeId)) throw notFound('Exchange not found');
    const [row] = await this.deps.db
      .select()
      .from(exchanges)
      .where(and(eq(exchanges.id, exchangeId), this.ownerFilter(owner)))
      .limit(1);
    if (!row) throw notFound('Exchange not found');
    const stale = !row.lastCheckedAt || Date.now() - row.lastCheckedAt.getTime() > READ_REFRESH_MS;
    if (UNFINISHED_STATUSES.includes(row.status) && stale) return (await this.refreshFromProvider(row, 'read')) ?? row;
    return row;
  }

  async listMine(owner: ExchangeOwner, query: MyExchangesQuery): Promise<{ rows: ExchangeRow[]; total: number }> {
    const where = this.ownerFilter(owner);
    const rows = await this.deps.db
      .select()
      .from(exchanges)
      .where(where)
      .orderBy(desc(exchanges.createdAt), desc(exchanges.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total] = await this.deps.db.select({ n: count() }).from(exchanges).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  // ---- Provider updates, reward credits and polling (exchange-sync.ts) ----

  refreshFromProvider(row: ExchangeRow, source: UpdateSource): Promise<ExchangeRow | null> {
    return this.sync.refreshFromProvider(row, source);
  }

  syncByProviderId(providerExchangeId: string, source: UpdateSource): Promise<ExchangeRow | null> {
    return this.sync.syncByProviderId(providerExchangeId, source);
  }

  applyProviderUpdate(exchangeId: string, remote: SwapTransaction, source: UpdateSource): Promise<ExchangeRow> {
    return this.sync.applyProviderUpdate(exchangeId, remote, source);
  }

  creditReward(tx: Tx, row: ExchangeRow, userId: string, cents: number, source: string): Promise<boolean> {
    return this.sync.creditReward(tx, row, userId, cents, source);
  }

  dueForPolling(limit: number, minAgeSeconds: number, db: DbOrTx = this.deps.db): Promise<ExchangeRow[]> {
    return this.sync.dueForPolling(limit, minAgeSeconds, db);
  }

  pollUnfinished(options: { limit?: number; minAgeSeconds?: number } = {}): Promise<{ checked: number; changed: number }> {
    return this.sync.pollUnfinished(options);
  }
}

/**
 * Signing in with a guestId moves the guest's exchanges to the account. Claims that cannot be redeemed
 * yet (the exchange has not finished) become the account's own: they are credited directly when the
 * exchange finishes, since the browser clears claims it could not redeem at sign-in (docs/product.md#guest-claims).
 * Finished, unclaimed ones stay claims for the browser to redeem.
 */
export async function moveGuestExchangesToUser(tx: Tx, guestId: string, userId: string): Promise<void> {
  await tx
    .update(exchanges)
    .set({
      userId,
      rewardMode: sql`CASE WHEN ${exchanges.rewardMode} = 'claim' AND ${exchanges.rewardCreditedAt} IS NULL
        AND ${exchanges.status} NOT IN ('finished', 'failed', 'refunded', 'expired') THEN 'direct' ELSE ${exchanges.rewardMode} END`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(exchanges.guestId, guestId), isNull(exchanges.userId)));
}
