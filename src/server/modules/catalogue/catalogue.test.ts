import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { linkToken, waitForMail } from '#server/test/mailbox.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { postLedgerEntry } from '#server/modules/credits/ledger.service.js';
import { creditLedgerEntries } from '#server/modules/credits/credits.tables.js';
import { mailMessages } from '#server/modules/mail/mail.tables.js';
import { setRole } from '#server/modules/users/users.service.js';
import { users } from '#server/modules/users/users.tables.js';
import { webhookDeliveries } from '#server/modules/webhooks/webhooks.tables.js';
import { catalogueItems, orders } from './catalogue.tables.js';

type Account = Awaited<ReturnType<typeof registerUser>>;

describe.each(enginesFor('database'))('catalogue and orders on %s', (engine) => {
  let t: TestApp;
  let admin: Account;
  let support: Account;
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  const key = () => `key-${randomUUID()}`;
  const balanceOf = async (userId: string) => {
    const [row] = await t.database.db.select({ c: users.creditsCents }).from(users).where(eq(users.id, userId));
    return row!.c;
  };
  async function userWith(cents: number): Promise<Account> {
    const account = await registerUser(t);
    if (cents > 0) {
      seq += 1;
      await postLedgerEntry(
        t.database.db,
        {
          userId: account.userId,
          amountCents: cents,
          kind: 'adjustment',
          reference: `adjustment:catalogue-${account.userId}-${seq}`,
          description: 'Test credits',
        },
        t.app.events,
      );
    }
    return account;
  }
  async function newItem(body: Record<string, unknown> = {}) {
    seq += 1;
    const res = await call(t, 'POST', '/api/admin/catalogue', {
      token: admin.token,
      body: { name: `Item ${seq}`, description: 'A thing to buy.', priceCents: 300, stock: null, ...body },
    });
    expect(res.status).toBe(201);
    return res.json.item as { _id: string; name: string; priceCents: number; stock: number | null; active: boolean };
  }
  /** Buys `item` at the price the caller last saw of it (its `priceCents`), as the catalogue's buy dialog does. */
  const buy = (account: Account, item: { _id: string; priceCents: number }, idempotencyKey = key(), expectedPriceCents = item.priceCents) =>
    call(t, 'POST', '/api/orders', {
      token: account.token,
      body: { itemId: item._id, expectedPriceCents },
      headers: { 'Idempotency-Key': idempotencyKey },
    });
  const setPrice = async (itemId: string, priceCents: number) => {
    const res = await call(t, 'PUT', `/api/admin/catalogue/${itemId}`, { token: admin.token, body: { priceCents } });
    expect(res.status).toBe(200);
  };
  const spendsOf = (userId: string) =>
    t.database.db
      .select()
      .from(creditLedgerEntries)
      .where(and(eq(creditLedgerEntries.userId, userId), eq(creditLedgerEntries.kind, 'spend')));
  const stockOf = async (itemId: string) => {
    const [row] = await t.database.db.select({ stock: catalogueItems.stock }).from(catalogueItems).where(eq(catalogueItems.id, itemId));
    return row!.stock;
  };

  it('mails the user when an order is paid, fulfilled and refunded, unless order mails are off', async () => {
    const item = await newItem({ name: 'Mailed thing', priceCents: 150 });
    const buyer = await userWith(500);
    const email = `${buyer.username}@example.com`;
    const order = (await buy(buyer, item)).json.order;
    const [paid] = await waitForMail(t, email, 'Order confirmed: Mailed thing', 1, 90_000);
    expect(paid!.text).toContain('1.50 credits');
    expect(paid!.text).toContain(`order:${order._id}`);
    expect(paid!.text).toContain('/unsubscribe?token=');
    await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: admin.token });
    await waitForMail(t, email, 'Order fulfilled: Mailed thing', 1, 90_000);
    await call(t, 'POST', `/api/admin/orders/${order._id}/refund`, { token: admin.token });
    const [refunded] = await waitForMail(t, email, 'Order refunded: Mailed thing', 1, 90_000);
    expect(refunded!.text).toContain(`order-refund:${order._id}`);
    // The mail's own unsubscribe link turns order mails off, without signing in.
    const unsubscribed = await call(t, 'POST', '/api/mail/unsubscribe', { body: { token: linkToken(refunded!, '/unsubscribe') } });
    expect(unsubscribed.json).toMatchObject({ kind: 'order_updates', message: 'You will no longer receive order notifications by email.' });
    expect((await call(t, 'GET', '/api/users/mail-preferences', { token: buyer.token })).json).toEqual({
      paymentCredited: true,
      ticketReply: true,
      orderUpdates: false,
    });

    const quiet = await userWith(500);
    const off = await call(t, 'PUT', '/api/users/mail-preferences', { token: quiet.token, body: { orderUpdates: false } });
    expect(off.json).toMatchObject({ orderUpdates: false });
    expect((await buy(quiet, item)).status).toBe(201);
    // The mail would be written in the purchase's own transaction: none is there.
    const [queued] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailMessages)
      .where(and(eq(mailMessages.userId, quiet.userId), eq(mailMessages.kind, 'order_updates')));
    expect(queued!.n).toBe(0);
  }, 300_000);

  it('lists the item, buys it with one spend entry, and answers the same key again without buying twice', async () => {
    const item = await newItem({ priceCents: 250, stock: 5 });
    const buyer = await userWith(1000);

    const listed = await call(t, 'GET', '/api/catalogue');
    expect(listed.status).toBe(200);
    expect(listed.json.items).toContainEqual(expect.objectContaining({ _id: item._id, priceCents: 250, stock: 5, active: true }));

    const k = key();
    const bought = await buy(buyer, item, k);
    expect(bought.status).toBe(201);
    expect(bought.json.balanceCents).toBe(750);
    const order = bought.json.order;
    expect(order).toMatchObject({ itemId: item._id, itemName: item.name, priceCents: 250, status: 'paid', refundLedgerEntryId: null });

    const [entry] = await t.database.db.select().from(creditLedgerEntries).where(eq(creditLedgerEntries.id, order.ledgerEntryId));
    expect(entry).toMatchObject({
      userId: buyer.userId,
      kind: 'spend',
      amountCents: -250,
      balanceAfterCents: 750,
      reference: `order:${order._id}`,
    });
    expect(await stockOf(item._id)).toBe(4);

    const again = await buy(buyer, item, k);
    expect(again.status).toBe(200);
    expect(again.json.order._id).toBe(order._id);
    expect(again.json.balanceCents).toBe(750);
    expect(await balanceOf(buyer.userId)).toBe(750);
    expect(await stockOf(item._id)).toBe(4);

    const mine = await call(t, 'GET', '/api/orders', { token: buyer.token });
    expect(mine.json).toMatchObject({ total: 1, orders: [{ _id: order._id, ledgerEntryId: entry!.id, status: 'paid' }] });
    const one = await call(t, 'GET', `/api/orders/${order._id}`, { token: buyer.token });
    expect(one.json.order).toEqual(order);
  });

  it('20 parallel purchases against a balance that covers 3 buy exactly 3', async () => {
    const item = await newItem({ priceCents: 300 });
    const buyer = await userWith(900);
    const answers = await Promise.all(Array.from({ length: 20 }, () => buy(buyer, item)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 422)).toHaveLength(17);
    for (const refused of answers.filter((a) => a.status === 422)) {
      expect(refused.json).toMatchObject({ code: 'INSUFFICIENT_CREDITS', details: { shortfallCents: expect.any(Number) } });
    }
    expect(await balanceOf(buyer.userId)).toBe(0);
    const mine = await call(t, 'GET', '/api/orders', { token: buyer.token });
    expect(mine.json.total).toBe(3);
  }, 60_000);

  it('with stock 2, ten buyers with money in parallel buy exactly 2', async () => {
    const item = await newItem({ priceCents: 100, stock: 2 });
    const buyers = await Promise.all(Array.from({ length: 10 }, () => userWith(500)));
    const answers = await Promise.all(buyers.map((b) => buy(b, item)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(2);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.json).toMatchObject({ code: 'OUT_OF_STOCK' });
    expect(await stockOf(item._id)).toBe(0);
    const balances = await Promise.all(buyers.map((b) => balanceOf(b.userId)));
    expect(balances.filter((c) => c === 400)).toHaveLength(2);
    expect(balances.filter((c) => c === 500)).toHaveLength(8);
  }, 60_000);

  it('one idempotency key sent ten times in parallel buys once', async () => {
    const item = await newItem({ priceCents: 100 });
    const buyer = await userWith(1000);
    const k = key();
    const answers = await Promise.all(Array.from({ length: 10 }, () => buy(buyer, item, k)));
    expect(answers.every((a) => a.status === 201 || a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.json.order._id)).size).toBe(1);
    expect(await balanceOf(buyer.userId)).toBe(900);
    const spends = await t.database.db
      .select()
      .from(creditLedgerEntries)
      .where(and(eq(creditLedgerEntries.userId, buyer.userId), eq(creditLedgerEntries.kind, 'spend')));
    expect(spends).toHaveLength(1);
  }, 60_000);

  it('the same key for another item is a 409, and a missing key a 400', async () => {
    const first = await newItem({ priceCents: 100 });
    const second = await newItem({ priceCents: 100 });
    const buyer = await userWith(1000);
    const k = key();
    expect((await buy(buyer, first, k)).status).toBe(201);
    const other = await buy(buyer, second, k);
    expect(other.status).toBe(409);
    expect(other.json.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const missing = await call(t, 'POST', '/api/orders', { token: buyer.token, body: { itemId: first._id, expectedPriceCents: 100 } });
    expect(missing.status).toBe(400);
    expect(await balanceOf(buyer.userId)).toBe(900);
  });

  it('a changed price is a 409 PRICE_CHANGED with the price now, and nothing is charged, taken or recorded', async () => {
    const item = await newItem({ priceCents: 300, stock: 4 });
    const buyer = await userWith(1000);
    await setPrice(item._id, 450);
    const k = key();
    const refused = await buy(buyer, item, k); // still the 300 the buyer saw
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'PRICE_CHANGED', details: { priceCents: 450, expectedPriceCents: 300 } });
    expect(refused.json.error).toMatch(/price changed to 4\.50 credits/i);
    expect(await balanceOf(buyer.userId)).toBe(1000);
    expect(await stockOf(item._id)).toBe(4);
    expect(await spendsOf(buyer.userId)).toHaveLength(0);
    expect((await call(t, 'GET', '/api/orders', { token: buyer.token })).json.total).toBe(0);
    // Cheaper counts as changed too: the person confirmed one price, not "at most" it.
    await setPrice(item._id, 200);
    expect((await buy(buyer, item, key(), 450)).json).toMatchObject({ code: 'PRICE_CHANGED', details: { priceCents: 200 } });

    // The refused attempt did not use up its key: the same key at the new price buys, once.
    const bought = await buy(buyer, item, k, 200);
    expect(bought.status).toBe(201);
    expect(bought.json).toMatchObject({ balanceCents: 800, order: { priceCents: 200, status: 'paid' } });
    const again = await buy(buyer, item, k, 200);
    expect(again.status).toBe(200);
    expect(again.json.order._id).toBe(bought.json.order._id);
    // The key now means "bought at 2.00": the same key with another price is not answered as that order.
    const otherPrice = await buy(buyer, item, k, 300);
    expect(otherPrice.status).toBe(409);
    expect(otherPrice.json).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', details: { orderId: bought.json.order._id, priceCents: 200 } });
    expect(await balanceOf(buyer.userId)).toBe(800);
    expect(await stockOf(item._id)).toBe(3);
    expect((await spendsOf(buyer.userId)).map((e) => e.amountCents)).toEqual([-200]);
  });

  it('refuses a missing, negative, fractional or text expectedPriceCents with a 400, buying nothing', async () => {
    const item = await newItem({ priceCents: 300 });
    const buyer = await userWith(1000);
    const send = (body: Record<string, unknown>) =>
      call(t, 'POST', '/api/orders', { token: buyer.token, body: { itemId: item._id, ...body }, headers: { 'Idempotency-Key': key() } });
    for (const bad of [
      {},
      { expectedPriceCents: -300 },
      { expectedPriceCents: 299.5 },
      { expectedPriceCents: '300' },
      { expectedPriceCents: null },
    ]) {
      const res = await send(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      expect(res.json.error).toMatch(/expectedPriceCents/);
      expect(res.json.details.fields).toHaveProperty('expectedPriceCents');
    }
    expect(await balanceOf(buyer.userId)).toBe(1000);
    expect(await spendsOf(buyer.userId)).toHaveLength(0);
  });

  it('while the price changes under parallel purchases, every order is charged exactly the price its buyer sent', async () => {
    const item = await newItem({ priceCents: 300, stock: null });
    const buyers = await Promise.all(Array.from({ length: 12 }, () => userWith(5000)));
    // Half confirmed the old price, half the new one; the price moves 300 -> 500 -> 300 -> 500 meanwhile.
    const sent = buyers.map((_, i) => (i % 2 === 0 ? 300 : 500));
    const [answers] = await Promise.all([
      Promise.all(buyers.map((b, i) => buy(b, item, key(), sent[i]))),
      (async () => {
        for (const price of [500, 300, 500]) await setPrice(item._id, price);
      })(),
    ]);
    let bought = 0;
    for (const [i, res] of answers.entries()) {
      const buyer = buyers[i]!;
      const spends = await spendsOf(buyer.userId);
      if (res.status === 201) {
        bought += 1;
        expect(res.json.order.priceCents).toBe(sent[i]);
        expect(spends.map((e) => e.amountCents)).toEqual([-sent[i]!]);
        expect(await balanceOf(buyer.userId)).toBe(5000 - sent[i]!);
      } else {
        expect(res.status).toBe(409);
        expect(res.json.code).toBe('PRICE_CHANGED');
        expect(res.json.details.priceCents).not.toBe(sent[i]);
        expect(spends).toHaveLength(0);
        expect(await balanceOf(buyer.userId)).toBe(5000);
      }
    }
    const [orderCount] = await t.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.itemId, item._id));
    expect(orderCount!.n).toBe(bought);
    // After the last change (500), only the buyers who sent 500 can still buy.
    const late = await Promise.all(buyers.slice(0, 2).map((b, i) => buy(b, item, key(), sent[i])));
    expect(late.map((r) => r.status)).toEqual([409, 201]);
    expect(late[1]!.json.order.priceCents).toBe(500);
  }, 60_000);

  it('not enough credits is a 422 with the shortfall, and nothing is bought', async () => {
    const item = await newItem({ priceCents: 1234, stock: 3 });
    const buyer = await userWith(1000);
    const res = await buy(buyer, item);
    expect(res.status).toBe(422);
    expect(res.json).toMatchObject({
      code: 'INSUFFICIENT_CREDITS',
      details: { shortfallCents: 234, balanceCents: 1000, priceCents: 1234 },
    });
    expect(await balanceOf(buyer.userId)).toBe(1000);
    expect(await stockOf(item._id)).toBe(3);
    const broke = await userWith(0);
    expect((await buy(broke, item)).json.details.shortfallCents).toBe(1234);
  });

  it('hidden items are not listed and cannot be bought; staff still see them', async () => {
    const item = await newItem({ priceCents: 100 });
    const buyer = await userWith(1000);
    const hidden = await call(t, 'PUT', `/api/admin/catalogue/${item._id}`, { token: admin.token, body: { active: false } });
    expect(hidden.status).toBe(200);
    expect(hidden.json.item.active).toBe(false);
    expect((await call(t, 'GET', '/api/catalogue')).json.items.map((i: { _id: string }) => i._id)).not.toContain(item._id);
    const res = await buy(buyer, item);
    expect(res.status).toBe(404);
    expect(await balanceOf(buyer.userId)).toBe(1000);
    const staffList = await call(t, 'GET', '/api/admin/catalogue', { token: support.token });
    expect(staffList.json.items).toContainEqual(expect.objectContaining({ _id: item._id, active: false }));
    // A sold-out item is listed, and refused with 409.
    const soldOut = await newItem({ priceCents: 100, stock: 0 });
    expect((await call(t, 'GET', '/api/catalogue')).json.items).toContainEqual(expect.objectContaining({ _id: soldOut._id, stock: 0 }));
    expect((await buy(buyer, soldOut)).json.code).toBe('OUT_OF_STOCK');
    expect((await buy(buyer, { _id: randomUUID(), priceCents: 100 })).status).toBe(404);
  });

  it('only admins change the catalogue; every change is in the audit log', async () => {
    const refused = await call(t, 'POST', '/api/admin/catalogue', {
      token: support.token,
      body: { name: 'No', description: '', priceCents: 1, stock: null },
    });
    expect(refused.status).toBe(403);
    const item = await newItem({ name: 'Audited thing', priceCents: 500 });
    const changed = await call(t, 'PUT', `/api/admin/catalogue/${item._id}`, { token: admin.token, body: { priceCents: 600, stock: 7 } });
    expect(changed.json.item).toMatchObject({ priceCents: 600, stock: 7 });
    await call(t, 'PUT', `/api/admin/catalogue/${item._id}`, { token: admin.token, body: { active: false } });
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${item._id}`, { token: admin.token });
    const actions = (audit.json.entries as Array<{ action: string; before: unknown; after: unknown; actor: { username: string } }>)
      .map((e) => e.action)
      .sort();
    expect(actions).toEqual(['catalogue.item_created', 'catalogue.item_hidden', 'catalogue.item_updated']);
    const update = audit.json.entries.find((e: { action: string }) => e.action === 'catalogue.item_updated');
    expect(update).toMatchObject({
      actor: { username: admin.username },
      before: { priceCents: 500, stock: null },
      after: { priceCents: 600, stock: 7 },
    });
    expect((await call(t, 'PUT', `/api/admin/catalogue/${randomUUID()}`, { token: admin.token, body: { active: true } })).status).toBe(404);
  });

  it('staff fulfil a paid order once; the user sees it fulfilled', async () => {
    const item = await newItem({ priceCents: 100 });
    const buyer = await userWith(500);
    const order = (await buy(buyer, item)).json.order;
    const done = await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: support.token });
    expect(done.status).toBe(200);
    expect(done.json.order).toMatchObject({
      _id: order._id,
      status: 'fulfilled',
      owner: { userId: buyer.userId, username: buyer.username },
    });
    expect(done.json.order.fulfilledAt).toEqual(expect.any(String));
    expect((await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: support.token })).status).toBe(409);
    expect((await call(t, 'GET', `/api/orders/${order._id}`, { token: buyer.token })).json.order.status).toBe('fulfilled');
    const listed = await call(t, 'GET', '/api/admin/orders?status=fulfilled', { token: support.token });
    expect(listed.json.orders.map((o: { _id: string }) => o._id)).toContain(order._id);
    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${order._id}`, { token: admin.token });
    expect(audit.json.entries).toContainEqual(
      expect.objectContaining({
        action: 'order.fulfilled',
        before: expect.objectContaining({ status: 'paid' }),
        after: expect.objectContaining({ status: 'fulfilled' }),
      }),
    );
    // Users cannot fulfil.
    expect((await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: buyer.token })).status).toBe(403);
  });

  it('ten parallel refunds refund once: credits back with one refund entry, stock restored', async () => {
    const item = await newItem({ priceCents: 400, stock: 1 });
    const buyer = await userWith(400);
    const order = (await buy(buyer, item)).json.order;
    expect(await stockOf(item._id)).toBe(0);
    expect((await call(t, 'POST', `/api/admin/orders/${order._id}/refund`, { token: support.token })).status).toBe(403);

    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(t, 'POST', `/api/admin/orders/${order._id}/refund`, { token: admin.token })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(9);
    const refunded = answers.find((a) => a.status === 200)!.json.order;
    expect(refunded).toMatchObject({ status: 'refunded', refundLedgerEntryId: expect.any(String) });

    expect(await balanceOf(buyer.userId)).toBe(400);
    expect(await stockOf(item._id)).toBe(1);
    const refunds = await t.database.db
      .select()
      .from(creditLedgerEntries)
      .where(eq(creditLedgerEntries.reference, `order-refund:${order._id}`));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ id: refunded.refundLedgerEntryId, kind: 'refund', amountCents: 400, actorId: admin.userId });
    const mine = await call(t, 'GET', `/api/orders/${order._id}`, { token: buyer.token });
    expect(mine.json.order).toMatchObject({
      status: 'refunded',
      ledgerEntryId: order.ledgerEntryId,
      refundLedgerEntryId: refunded.refundLedgerEntryId,
    });
    // A refunded order cannot be fulfilled.
    expect((await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: admin.token })).status).toBe(409);
  }, 60_000);

  it('fulfilling and refunding an order are told in the app, each linking to its receipt', async () => {
    const item = await newItem({ name: 'Linked thing', priceCents: 200 });
    const buyer = await userWith(500);
    const order = (await buy(buyer, item)).json.order;
    expect((await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: admin.token })).status).toBe(200);
    const refunded = (await call(t, 'POST', `/api/admin/orders/${order._id}/refund`, { token: admin.token })).json.order;
    const { notifications } = (await call(t, 'GET', '/api/notifications', { token: buyer.token })).json as {
      notifications: Array<{ event: string; link: string }>;
    };
    const linkOf = (event: string) => notifications.find((n) => n.event === event)?.link;
    expect(linkOf('order.fulfilled')).toBe(`/dashboard/receipts/${order.ledgerEntryId}`);
    expect(linkOf('order.refunded')).toBe(`/dashboard/receipts/${refunded.refundLedgerEntryId}`);
    const receipt = await call(t, 'GET', `/api/credits/ledger/${refunded.refundLedgerEntryId}/receipt`, { token: buyer.token });
    expect(receipt.status).toBe(200);
  });

  it('a user sees only their own orders', async () => {
    const item = await newItem({ priceCents: 100 });
    const owner = await userWith(500);
    const other = await userWith(500);
    const order = (await buy(owner, item)).json.order;
    expect((await call(t, 'GET', `/api/orders/${order._id}`, { token: other.token })).status).toBe(404);
    expect((await call(t, 'GET', '/api/orders', { token: other.token })).json.total).toBe(0);
    expect((await call(t, 'GET', '/api/orders')).status).toBe(401);
    expect((await call(t, 'GET', '/api/admin/orders', { token: owner.token })).status).toBe(403);
    // The same idempotency key is per user: another user's key does not collide.
    const k = key();
    expect((await buy(owner, item, k)).status).toBe(201);
    expect((await buy(other, item, k)).status).toBe(201);
  });

  it("queues order.paid, order.fulfilled and order.refunded for the user's webhook", async () => {
    const item = await newItem({ priceCents: 100 });
    const buyer = await userWith(500);
    const hook = await call(t, 'PUT', '/api/users/webhook-settings', {
      token: buyer.token,
      body: { url: 'http://127.0.0.1:9/hook', events: ['order.paid', 'order.fulfilled', 'order.refunded'], enabled: true },
    });
    expect(hook.status).toBe(200);
    const order = (await buy(buyer, item)).json.order;
    await call(t, 'POST', `/api/admin/orders/${order._id}/fulfil`, { token: admin.token });
    await call(t, 'POST', `/api/admin/orders/${order._id}/refund`, { token: admin.token });
    const deliveries = await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, buyer.userId));
    expect(deliveries.map((d) => d.event).sort()).toEqual(['order.fulfilled', 'order.paid', 'order.refunded']);
    const paid = deliveries.find((d) => d.event === 'order.paid')!;
    expect(paid.payload).toMatchObject({
      orderId: order._id,
      itemId: item._id,
      priceCents: 100,
      status: 'paid',
      ledgerEntryId: order.ledgerEntryId,
    });
    const refunded = deliveries.find((d) => d.event === 'order.refunded')!;
    expect(refunded.payload).toMatchObject({ orderId: order._id, status: 'refunded', refundLedgerEntryId: expect.any(String) });
  });
});
