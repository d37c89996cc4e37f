import type { CryptoOption, MyPaymentsQuery } from '#shared/schemas/payments.js';
import type { DbOrTx } from '#server/db/client.js';
import { Deposits } from './deposits.js';
import { IpnBatcher, type IpnOutcome } from './ipn-batch.js';
import { SingleIpn } from './ipn-single.js';
import { KeyedLock } from './keyed-lock.js';
import type { NowPaymentsPayment } from './nowpayments.client.js';
import { PaymentReads } from './payment-reads.js';
import type { PaymentStatusEntry } from './payment-rows.js';
import type { PaymentsServiceDeps, UpdateSource } from './payments-deps.js';
import type { PaymentRow } from './payments.tables.js';
import { ProviderUpdates } from './provider-updates.js';
import { Reconciliation } from './reconciliation.js';

export { LATE_MONEY_STATUSES, UNFINISHED_STATUSES } from './reconciliation.js';
export { toPaymentDto, toStatusResponse } from './payment-rows.js';
export type { PaymentsServiceDeps, UpdateSource } from './payments-deps.js';

/** Payments: deposits, the status poll, provider updates and IPNs, reconciliation (each in its own file). */
export class PaymentsService {
  // The module's one entry point: routes, jobs, admin and tests call this class, and it hands each call
  // to the file of its concern. Its parts share one KeyedLock and one status cache (in PaymentReads),
  // built here once per instance.
  private readonly paymentLock = new KeyedLock();
  /** Signed IPNs applied in batches (docs/decisions/0191); the unusual ones through handleIpn. */
  private readonly ipnBatcher: IpnBatcher;
  private readonly reads: PaymentReads;
  private readonly deposits: Deposits;
  private readonly updates: ProviderUpdates;
  private readonly ipn: SingleIpn;
  private readonly reconciliation: Reconciliation;

  constructor(private readonly deps: PaymentsServiceDeps) {
    this.ipnBatcher = new IpnBatcher({
      db: deps.db,
      log: deps.log,
      events: deps.events,
      forget: (paymentId) => this.reads.forgetStatus(paymentId),
      single: (body) => this.handleIpn(body),
    });
    this.reads = new PaymentReads(deps);
    this.deposits = new Deposits(deps);
    this.updates = new ProviderUpdates(deps, this.paymentLock, this.reads);
    this.ipn = new SingleIpn(deps, this.paymentLock, this.updates);
    this.reconciliation = new Reconciliation(deps, this.paymentLock, this.ipn, this.updates);
  }

  get limits(): { minAmount: number; maxAmount: number } {
    return { minAmount: this.deps.limitsUsd.min, maxAmount: this.deps.limitsUsd.max };
  }

  // ---- Deposits (deposits.ts) ----

  listCryptos(): Promise<CryptoOption[]> {
    return this.deposits.listCryptos();
  }

  createDeposit(userId: string, crypto: string, amountUsd: number): Promise<PaymentRow> {
    return this.deposits.createDeposit(userId, crypto, amountUsd);
  }

  // ---- A user's own payments (payment-reads.ts) ----

  getOwn(userId: string, paymentId: string): Promise<PaymentRow> {
    return this.reads.getOwn(userId, paymentId);
  }

  receiptEntryId(row: Pick<PaymentRow, 'id' | 'userId'>): Promise<string | null> {
    return this.reads.receiptEntryId(row);
  }

  getOwnStatus(userId: string, paymentId: string): Promise<PaymentStatusEntry> {
    return this.reads.getOwnStatus(userId, paymentId);
  }

  listMine(userId: string, query: MyPaymentsQuery): Promise<{ rows: PaymentRow[]; total: number }> {
    return this.reads.listMine(userId, query);
  }

  // ---- The provider's word applied (provider-updates.ts): the one place a payment's status moves ----

  check(userId: string, paymentId: string, txHash: string): Promise<PaymentRow> {
    return this.updates.check(userId, paymentId, txHash);
  }

  refreshFromProvider(paymentId: string, source: UpdateSource): Promise<PaymentRow | null> {
    return this.updates.refreshFromProvider(paymentId, source);
  }

  applyProviderUpdate(paymentId: string, remote: NowPaymentsPayment, source: UpdateSource): Promise<PaymentRow> {
    return this.updates.applyProviderUpdate(paymentId, remote, source);
  }

  // ---- IPNs: the single path (ipn-single.ts) and the batches (ipn-batch.ts) ----

  handleIpn(body: NowPaymentsPayment): Promise<PaymentRow> {
    return this.ipn.handleIpn(body);
  }

  /**
   * A signed IPN as the route receives it: applied with the others arriving at the same time, in one
   * transaction (docs/decisions/0191), and answered once that has committed.
   */
  receiveIpn(body: NowPaymentsPayment): Promise<IpnOutcome> {
    return this.ipnBatcher.submit(body);
  }

  // ---- Reconciliation jobs (reconciliation.ts) ----

  dueForReconciliation(limit: number, minAgeSeconds: number, db: DbOrTx = this.deps.db): Promise<PaymentRow[]> {
    return this.reconciliation.dueForReconciliation(limit, minAgeSeconds, db);
  }

  discoverRedeposits(options: { pageSize?: number; maxPages?: number } = {}): Promise<{ listed: number; found: number }> {
    return this.reconciliation.discoverRedeposits(options);
  }

  reconcile(options: { limit?: number; minAgeSeconds?: number } = {}): Promise<{ checked: number; changed: number }> {
    return this.reconciliation.reconcile(options);
  }
}
