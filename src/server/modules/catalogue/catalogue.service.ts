import { randomUUID } from 'node:crypto';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { formatCredits } from '#shared/fees.js';
import type {
  AdminOrder,
  AdminOrderListQuery,
  CatalogueItem,
  CreateCatalogueItemBody,
  InsufficientCreditsDetails,
  Order,
  PriceChangedDetails,
  OrderStatus,
  UpdateCatalogueItemBody,
} from '#shared/schemas/catalogue.js';
import { isUuid } from '#shared/schemas/common.js';
import type { Db, Tx } from '#server/db/client.js';
import { AppError, conflict, notFound, unprocessable } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { lockUserForMoney, postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { DomainEvents } from '#server/events/domain-events.js';
import { actor, createItem, listActiveItems, listAllItems, updateItem } from './catalogue-items.js';
import { catalogueItems, orders, type OrderRow } from './catalogue.tables.js';
import { ledgerText } from '#shared/ledger-texts.js';

export { toItemDto } from './catalogue-items.js';

export interface CatalogueDeps {
  db: Db;
  /** Where an order's change is reported (its webhook, mail and notice subscribe there). */
  events: DomainEvents;
}

export interface PurchaseResult {
  order: Order;
  balanceCents: number;
  /** True when this idempotency key had already bought: the first order is answered again. */
  replayed: boolean;
}

export const orderReference = (orderId: string) => `order:${orderId}`;
export const orderRefundReference = (orderId: string) => `order-refund:${orderId}`;

export function toOrderDto(row: OrderRow): Order {
  return {
    _id: row.id,
    itemId: row.itemId,
    itemName: row.itemName,
    priceCents: row.priceCents,
    status: row.status,
    ledgerEntryId: row.ledgerEntryId,
    refundLedgerEntryId: row.refundLedgerEntryId,
    createdAt: row.createdAt.toISOString(),
    fulfilledAt: row.fulfilledAt?.toISOString() ?? null,
    refundedAt: row.refundedAt?.toISOString() ?? null,
  };
}

function orderAuditView(row: OrderRow) {
  return {
    status: row.status,
    userId: row.userId,
    itemId: row.itemId,
    priceCents: row.priceCents,
    refundLedgerEntryId: row.refundLedgerEntryId,
  };
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e?.code ?? e?.cause?.code) === '23505';
}

/**
 * The catalogue (staff keep it) and orders (users buy with credits; staff fulfil or refund). Every
 * money step is one transaction with the ledger entry, the order, the stock, the webhook event and the
 * mail, so either all of it happens or none (docs/decisions/0160). The items (listing, and the staff
 * who keep them) are in catalogue-items.ts.
 */
export class CatalogueService {
  constructor(private readonly deps: CatalogueDeps) {}

  private get db(): Db {
    return this.deps.db;
  }

  // ---- Catalogue ------------------------------------------------------------------------------------

  listActive(): Promise<CatalogueItem[]> {
    return listActiveItems(this.db);
  }

  listAllItems(): Promise<CatalogueItem[]> {
    return listAllItems(this.db);
  }

  createItem(staffId: string, body: CreateCatalogueItemBody): Promise<CatalogueItem> {
    return createItem(this.db, staffId, body);
  }

  updateItem(staffId: string, id: string, body: UpdateCatalogueItemBody): Promise<CatalogueItem> {
    return updateItem(this.db, staffId, id, body);
  }

  // ---- Buying ---------------------------------------------------------------------------------------

  /**
   * Buys one unit of `itemId` for `userId` at `expectedPriceCents` (the price the person confirmed),
   * once per idempotency key. In one transaction: lock the user's row (purchases of one user queue
   * here, so the key check below sees every earlier order), answer an earlier order with this key
   * (another item or another price: 409), lock the item, refuse a hidden item (404), a sold-out one (409
   * OUT_OF_STOCK), a price other than the expected one (409 PRICE_CHANGED with the price now; decision
   * 0210) or a short balance (422 INSUFFICIENT_CREDITS with the shortfall), post the `spend`
   * entry `order:<id>`, take one from the stock, write the order and queue `order.paid` and its mail.
   * A refused attempt writes nothing, so its key stays free for the retry.
   */
  async purchase(userId: string, request: { itemId: string; expectedPriceCents: number }, idempotencyKey: string): Promise<PurchaseResult> {
    try {
      return await this.purchaseOnce(userId, request, idempotencyKey);
    } catch (err) {
      // Belt and braces: the user-row lock makes this unreachable, but a unique key must never become a 500.
      if (!isUniqueViolation(err)) throw err;
      return this.purchaseOnce(userId, request, idempotencyKey);
    }
  }

  private async purchaseOnce(
    userId: string,
    { itemId, expectedPriceCents }: { itemId: string; expectedPriceCents: number },
    idempotencyKey: string,
  ): Promise<PurchaseResult> {
    return this.db.transaction(async (tx) => {
      const user = await lockUserForMoney(tx, userId);
      if (!user) throw notFound('User not found');

      const [earlier] = await tx
        .select()
        .from(orders)
        .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)))
        .limit(1);
      if (earlier) {
        if (earlier.itemId !== itemId) {
          throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used to buy another item', {
            details: { orderId: earlier.id },
          });
        }
        if (earlier.priceCents !== expectedPriceCents) {
          // The same key must mean the same purchase: answering "bought" to a request that confirmed
          // another price would tell the client something it did not ask for.
          throw new AppError(
            'IDEMPOTENCY_KEY_REUSED',
            `This Idempotency-Key already bought this item at ${formatCredits(earlier.priceCents)} credits`,
            {
              details: { orderId: earlier.id, priceCents: earlier.priceCents },
            },
          );
        }
        return { order: toOrderDto(earlier), balanceCents: user.creditsCents, replayed: true };
      }

      const [item] = await tx.select().from(catalogueItems).where(eq(catalogueItems.id, itemId)).for('update');
      if (!item || !item.active) throw notFound('This item is not available');
      if (item.stock !== null && item.stock <= 0) throw new AppError('OUT_OF_STOCK', 'This item is sold out');
      // Compared under the item's row lock, which a price change also takes: the price charged below
      // is the one the person confirmed, never one that changed in between.
      if (item.priceCents !== expectedPriceCents) {
        const details: PriceChangedDetails = { priceCents: item.priceCents, expectedPriceCents };
        throw new AppError(
          'PRICE_CHANGED',
          `The price changed to ${formatCredits(item.priceCents)} credits. Nothing was charged; confirm the new price to buy.`,
          { details },
        );
      }
      if (user.creditsCents < item.priceCents) {
        const details: InsufficientCreditsDetails = {
          shortfallCents: item.priceCents - user.creditsCents,
          balanceCents: user.creditsCents,
          priceCents: item.priceCents,
        };
        throw unprocessable(`Not enough credits: ${formatCredits(details.shortfallCents)} more needed`, 'INSUFFICIENT_CREDITS', details);
      }

      const orderId = randomUUID();
      const posted = await postLedgerEntry(
        tx,
        {
          userId,
          amountCents: -item.priceCents,
          kind: 'spend',
          reference: orderReference(orderId),
          description: ledgerText('order', { item: item.name }),
          metadata: { orderId, itemId: item.id, itemName: item.name },
        },
        this.deps.events,
      );
      if (item.stock !== null) {
        await tx
          .update(catalogueItems)
          .set({ stock: sql`${catalogueItems.stock} - 1` })
          .where(eq(catalogueItems.id, item.id));
      }
      const [row] = await tx
        .insert(orders)
        .values({
          id: orderId,
          userId,
          itemId: item.id,
          itemName: item.name,
          priceCents: item.priceCents,
          status: 'paid',
          idempotencyKey,
          ledgerEntryId: posted.entry.id,
        })
        .returning();
      const order = toOrderDto(row!);
      await this.announce(tx, row!, 'paid', item.priceCents, posted.entry.reference);
      return { order, balanceCents: posted.balanceCents, replayed: false };
    });
  }

  // ---- Orders ---------------------------------------------------------------------------------------

  /** What an order cost (0 for an unknown one: the route answers 404 after the checks). */
  async orderPriceCents(id: string): Promise<number> {
    if (!isUuid(id)) return 0;
    const [row] = await this.db.select({ priceCents: orders.priceCents }).from(orders).where(eq(orders.id, id)).limit(1);
    return row?.priceCents ?? 0;
  }

  async listMine(
    userId: string,
    page: { page: number; pageSize: number },
  ): Promise<{ orders: Order[]; page: number; pageSize: number; total: number }> {
    const where = eq(orders.userId, userId);
    const rows = await this.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize);
    const [total] = await this.db.select({ n: count() }).from(orders).where(where);
    return { orders: rows.map(toOrderDto), page: page.page, pageSize: page.pageSize, total: total?.n ?? 0 };
  }

  /** One of the user's orders; anyone else's answers 404, never a hint that it exists. */
  async getMine(userId: string, id: string): Promise<Order> {
    if (!isUuid(id)) throw notFound('Order not found');
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.userId, userId)))
      .limit(1);
    if (!row) throw notFound('Order not found');
    return toOrderDto(row);
  }

  async listAllOrders(
    query: AdminOrderListQuery & { page: number; pageSize: number },
  ): Promise<{ orders: AdminOrder[]; page: number; pageSize: number; total: number }> {
    const where: SQL | undefined = query.status ? eq(orders.status, query.status) : undefined;
    const rows = await this.db
      .select({ order: orders, username: users.username })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId))
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const [total] = await this.db.select({ n: count() }).from(orders).where(where);
    return {
      orders: rows.map((r) => ({ ...toOrderDto(r.order), owner: { userId: r.order.userId, username: r.username } })),
      page: query.page,
      pageSize: query.pageSize,
      total: total?.n ?? 0,
    };
  }

  /** Staff: a paid order is delivered. A fulfilled or refunded order answers 409. */
  async fulfil(staffId: string, id: string): Promise<AdminOrder> {
    return this.changeOrder(staffId, id, async (tx, before) => {
      if (before.status !== 'paid')
        throw conflict(before.status === 'fulfilled' ? 'This order is already fulfilled' : 'A refunded order cannot be fulfilled', {
          status: before.status,
        });
      const [after] = await tx
        .update(orders)
        .set({ status: 'fulfilled', fulfilledAt: sql`now()` })
        .where(eq(orders.id, before.id))
        .returning();
      await this.announce(tx, after!, 'fulfilled', after!.priceCents, orderReference(after!.id));
      return { after: after!, action: 'order.fulfilled' };
    });
  }

  /**
   * Admin: gives the credits back with one `refund` entry (`order-refund:<id>`) and puts the unit back
   * in stock. The order row is locked first, so of two refunds racing one refunds and the other
   * answers 409; the unique reference would stop a second credit even without the lock.
   */
  async refund(staffId: string, id: string): Promise<AdminOrder> {
    return this.changeOrder(staffId, id, async (tx, before) => {
      if (before.status === 'refunded') throw conflict('This order was already refunded', { status: before.status });
      const posted = await postLedgerEntry(
        tx,
        {
          userId: before.userId,
          amountCents: before.priceCents,
          kind: 'refund',
          reference: orderRefundReference(before.id),
          description: ledgerText('orderRefund', { item: before.itemName }),
          actorId: staffId,
          metadata: { orderId: before.id, itemId: before.itemId, itemName: before.itemName, spendEntryId: before.ledgerEntryId },
        },
        this.deps.events,
      );
      await tx
        .update(catalogueItems)
        .set({ stock: sql`${catalogueItems.stock} + 1` })
        .where(and(eq(catalogueItems.id, before.itemId), sql`${catalogueItems.stock} IS NOT NULL`));
      const [after] = await tx
        .update(orders)
        .set({ status: 'refunded', refundLedgerEntryId: posted.entry.id, refundedAt: sql`now()` })
        .where(eq(orders.id, before.id))
        .returning();
      await this.announce(tx, after!, 'refunded', after!.priceCents, posted.entry.reference);
      return { after: after!, action: 'order.refunded' };
    });
  }

  private async changeOrder(
    staffId: string,
    id: string,
    change: (tx: Tx, before: OrderRow) => Promise<{ after: OrderRow; action: string }>,
  ): Promise<AdminOrder> {
    if (!isUuid(id)) throw notFound('Order not found');
    return this.db.transaction(async (tx) => {
      // The owner's row before the order's (decision 0301); an order never changes owner.
      const [ownerOf] = await tx.select({ userId: orders.userId }).from(orders).where(eq(orders.id, id)).limit(1);
      if (!ownerOf) throw notFound('Order not found');
      await lockUserForMoney(tx, ownerOf.userId);
      const [before] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
      if (!before) throw notFound('Order not found');
      const { after, action } = await change(tx, before);
      await recordAudit(tx, {
        actor: await actor(tx, staffId),
        action,
        targetType: 'order',
        targetId: id,
        before: orderAuditView(before),
        after: orderAuditView(after),
      });
      const owner = await findUserById(tx, after.userId);
      return { ...toOrderDto(after), owner: { userId: after.userId, username: owner?.username ?? 'unknown' } };
    });
  }

  /** The order's change reported (webhook, mail, notice), in the transaction that made it. */
  private async announce(tx: Tx, row: OrderRow, status: OrderStatus, amountCents: number, ledgerReference: string): Promise<void> {
    await this.deps.events.emit(tx, {
      type: 'order.changed',
      userId: row.userId,
      status,
      order: { ...toOrderDto(row), orderId: row.id },
      itemName: row.itemName,
      amountCents,
      ledgerReference,
      receiptEntryId: status === 'refunded' ? (row.refundLedgerEntryId ?? row.ledgerEntryId) : row.ledgerEntryId,
    });
  }
}
