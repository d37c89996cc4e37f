import { and, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { FINAL_EXCHANGE_STATUSES, type ExchangeStatus } from '#shared/schemas/exchange.js';
import type { DbOrTx, Tx } from '#server/db/client.js';
import { AppError, notFound } from '#server/errors.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import type { ExchangeServiceDeps, UpdateSource } from './exchange-deps.js';
import { decimal } from './exchange-rows.js';
import { exchanges, type ExchangeRow } from './exchange.tables.js';
import { earnedRewardCents } from './rewards.js';
import type { SwapTransaction } from './swap.client.js';
import { ledgerText } from '#shared/ledger-texts.js';

/** Provider statuses before the exchange ends, in the order they happen. */
const PROGRESS_RANK: Partial<Record<ExchangeStatus, number>> = {
  new: 0,
  waiting: 1,
  confirming: 2,
  exchanging: 3,
  sending: 4,
  verifying: 5,
};
const KNOWN_STATUSES = new Set<string>(Object.keys(PROGRESS_RANK).concat(FINAL_EXCHANGE_STATUSES));
/** Statuses the poller asks the provider about. */
export const UNFINISHED_STATUSES = Object.keys(PROGRESS_RANK) as ExchangeStatus[];
/** The poller stops asking about an exchange this old (an address nobody paid into). */
const POLL_WINDOW_DAYS = 7;

/**
 * Where an exchange goes given what the provider says now. Answers arrive late and repeated: progress
 * never goes backwards, `finished` is final, and after `failed` or `expired` only a late `finished`
 * (the coins did arrive and were swapped) or `refunded` can follow.
 */
export function nextExchangeStatus(current: ExchangeStatus, incoming: string): ExchangeStatus {
  if (!KNOWN_STATUSES.has(incoming)) return current;
  const next = incoming as ExchangeStatus;
  if (current === 'finished' || current === 'refunded') return current;
  if (next === 'finished' || next === 'refunded') return next;
  const currentRank = PROGRESS_RANK[current];
  if (currentRank === undefined) return current;
  const nextRank = PROGRESS_RANK[next];
  return nextRank === undefined || nextRank > currentRank ? next : current;
}

/**
 * What the provider says about exchanges, applied: the poller, a read and the sandbox's nudge, and the
 * reward credit when an exchange finishes or a claim is redeemed.
 */
export class ExchangeSync {
  constructor(private readonly deps: ExchangeServiceDeps) {}

  /** Asks the provider about one exchange and applies the answer; a provider outage leaves it as it was. */
  async refreshFromProvider(row: ExchangeRow, source: UpdateSource): Promise<ExchangeRow | null> {
    let remote: SwapTransaction;
    try {
      remote = await this.deps.client.transaction(row.providerExchangeId);
    } catch (err) {
      this.deps.log.warn({ err, exchangeId: row.id, source }, 'could not ask the swap provider about an exchange');
      return row;
    }
    return this.applyProviderUpdate(row.id, remote, source);
  }

  /** The sandbox's nudge and any other "this provider exchange changed" signal. */
  async syncByProviderId(providerExchangeId: string, source: UpdateSource): Promise<ExchangeRow | null> {
    const [row] = await this.deps.db.select().from(exchanges).where(eq(exchanges.providerExchangeId, providerExchangeId)).limit(1);
    return row ? this.refreshFromProvider(row, source) : null;
  }

  /**
   * The one place a provider's answer changes an exchange - the poller, a read and the sandbox's nudge
   * all come here. One transaction on one connection: lock the row, move the status, and when it
   * finishes fix the earned reward and, for a `direct` exchange, credit the owner through the ledger
   * (reference `reward:<id>`). The row lock serialises racing callers on every instance; the ledger's
   * unique reference is the last line against a double credit.
   */
  async applyProviderUpdate(exchangeId: string, remote: SwapTransaction, source: UpdateSource): Promise<ExchangeRow> {
    const result = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.select().from(exchanges).where(eq(exchanges.id, exchangeId)).for('update');
      if (!row) throw notFound('Exchange not found');
      if (remote.id !== undefined && String(remote.id) !== row.providerExchangeId) {
        throw new AppError('SWAP_PROVIDER_MISMATCH', 'The swap provider answered about another exchange');
      }
      const status = nextExchangeStatus(row.status, String(remote.status ?? ''));
      const amountSent = decimal(remote.amountSend) ?? row.amountSent;
      const amountReceived = decimal(remote.amountReceive) ?? row.amountReceived;
      const finishingNow = status === 'finished' && row.earnedRewardCents === null;
      const earned = finishingNow ? earnedRewardCents(row.rewardCents, row.amountFrom, amountSent) : row.earnedRewardCents;

      let rewardUserId = row.rewardUserId;
      let rewardCreditedAt = row.rewardCreditedAt;
      if (status === 'finished' && row.rewardMode === 'direct' && row.userId && !rewardCreditedAt && (earned ?? 0) > 0) {
        await this.creditReward(tx, row, row.userId, earned!, source);
        rewardUserId = row.userId;
        rewardCreditedAt = new Date();
      }

      const changed =
        status !== row.status ||
        amountSent !== row.amountSent ||
        amountReceived !== row.amountReceived ||
        rewardCreditedAt !== row.rewardCreditedAt;
      const [updated] = await tx
        .update(exchanges)
        .set({
          status,
          amountSent,
          amountReceived,
          payinHash: typeof remote.payinHash === 'string' ? remote.payinHash : row.payinHash,
          payoutHash: typeof remote.payoutHash === 'string' ? remote.payoutHash : row.payoutHash,
          earnedRewardCents: earned,
          rewardUserId,
          rewardCreditedAt,
          finishedAt: finishingNow ? sql`now()` : row.finishedAt,
          providerData: changed ? remote : row.providerData,
          lastCheckedAt: sql`now()`,
          ...(changed ? { updatedAt: sql`now()` } : {}),
        })
        .where(eq(exchanges.id, row.id))
        .returning();
      if (finishingNow) {
        await this.deps.events.emit(tx, {
          type: 'exchange.finished',
          owner: row.userId ? { userId: row.userId } : row.guestId ? { guestId: row.guestId } : null,
          exchange: { id: row.id, fromCurrency: row.fromCurrency, toCurrency: row.toCurrency, amountFrom: row.amountFrom, amountReceived },
          earnedRewardCents: earned,
          claimable: row.rewardMode === 'claim' && (earned ?? 0) > 0,
          rewardCredited: rewardCreditedAt !== null,
        });
      }
      return { before: row, after: updated! };
    });
    if (result.before.status !== result.after.status) {
      this.deps.log.info({ exchangeId, from: result.before.status, to: result.after.status, source }, 'exchange status changed');
    }
    return result.after;
  }

  /** Credits `cents` of an exchange's reward to `userId` once (reference `reward:<id>`); answers whether it posted now. */
  async creditReward(tx: Tx, row: ExchangeRow, userId: string, cents: number, source: string): Promise<boolean> {
    const posted = await postLedgerEntry(
      tx,
      {
        userId,
        amountCents: cents,
        kind: 'reward',
        reference: `reward:${row.id}`,
        description: ledgerText('exchangeReward', {
          amount: row.amountFrom,
          from: row.fromCurrency.toUpperCase(),
          to: row.toCurrency.toUpperCase(),
          cents,
        }),
        metadata: { exchangeId: row.id, providerExchangeId: row.providerExchangeId, mode: row.rewardMode, source },
      },
      this.deps.events,
    );
    // Reward claimed: a claim code redeemed (a direct reward is told by "exchange finished").
    if (posted.created && row.rewardMode === 'claim') {
      await this.deps.events.emit(tx, {
        type: 'reward.claimed',
        userId,
        exchange: { id: row.id, fromCurrency: row.fromCurrency, amountFrom: row.amountFrom },
        cents,
      });
    }
    return posted.created;
  }

  /** Unfinished exchanges, least recently checked first, that the poller should ask about. */
  async dueForPolling(limit: number, minAgeSeconds: number, db: DbOrTx = this.deps.db): Promise<ExchangeRow[]> {
    return db
      .select()
      .from(exchanges)
      .where(
        and(
          inArray(exchanges.status, UNFINISHED_STATUSES),
          gt(exchanges.createdAt, sql`now() - make_interval(days => ${POLL_WINDOW_DAYS})`),
          or(isNull(exchanges.lastCheckedAt), lt(exchanges.lastCheckedAt, sql`now() - make_interval(secs => ${minAgeSeconds})`)),
        ),
      )
      .orderBy(sql`${exchanges.lastCheckedAt} asc nulls first`)
      .limit(limit);
  }

  /** One polling pass (the real API has no webhooks): ask about each unfinished exchange. */
  async pollUnfinished(options: { limit?: number; minAgeSeconds?: number } = {}): Promise<{ checked: number; changed: number }> {
    const due = await this.dueForPolling(options.limit ?? 100, options.minAgeSeconds ?? 30);
    let changed = 0;
    for (const row of due) {
      const after = await this.refreshFromProvider(row, 'poll');
      if (after && after.status !== row.status) changed++;
    }
    return { checked: due.length, changed };
  }
}
