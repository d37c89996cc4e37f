import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import type { DomainEvent, DomainEventType } from './domain-events.js';

const ALL_TYPES: DomainEventType[] = [
  'credits.changed',
  'payment.changed',
  'exchange.finished',
  'reward.claimed',
  'order.changed',
  'charge.changed',
  'ticket.answered',
  'webhook.disabled',
  'security.changed',
];

/** The rows of docs/architecture.md's channel table: event -> the channels marked in it. */
function documentedChannels(): Map<string, string[]> {
  const doc = readFileSync('docs/architecture.md', 'utf8');
  const start = doc.indexOf('## Domain events');
  const section = doc.slice(start, doc.indexOf('\n## ', start + 1));
  const rows = section.split('\n').filter((line) => /^\| `[a-z.]+` \|/.test(line));
  const header = section
    .split('\n')
    .find((line) => line.startsWith('| Event |'))!
    .split('|')
    .slice(2, -1)
    .map((cell) => cell.trim());
  return new Map(
    rows.map((row) => {
      const cells = row
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      const type = cells[0]!.replace(/`/g, '');
      return [type, header.filter((_, i) => cells[i + 1] !== '' && cells[i + 1] !== '-')];
    }),
  );
}

describe.each(enginesFor('database'))('domain events on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reaches exactly the channels the table in docs/architecture.md says, for every event', () => {
    const table = documentedChannels();
    expect([...table.keys()].sort()).toEqual([...ALL_TYPES].sort());
    for (const type of ALL_TYPES) expect({ type, channels: t.app.events.channelsOf(type) }).toEqual({ type, channels: table.get(type) });
  });

  async function told(userId: string) {
    const count = async (query: string) => Number((await t.database.pool.query(query, [userId])).rows[0].n);
    return {
      webhooks: await count(`SELECT count(*) AS n FROM webhook_deliveries WHERE user_id = $1`),
      mails: await count(`SELECT count(*) AS n FROM mail_messages WHERE user_id = $1 AND kind = 'order_updates'`),
      notices: await count(`SELECT count(*) AS n FROM notifications WHERE user_id = $1 AND event = 'order.fulfilled'`),
    };
  }

  function orderFulfilled(userId: string, orderId: string): DomainEvent {
    return {
      type: 'order.changed',
      userId,
      status: 'fulfilled',
      order: { orderId, status: 'fulfilled' },
      itemName: 'Sticker pack',
      amountCents: 500,
      ledgerReference: `order:${orderId}`,
      receiptEntryId: orderId,
    };
  }

  it('tells an event if and only if its change commits: webhook, mail and notice', async () => {
    const user = await registerUser(t);
    await t.database.pool.query(
      `INSERT INTO webhooks (user_id, url, events, secret_ciphertext, secret_hint)
       VALUES ($1, 'https://hooks.example.com/olympus', '["order.fulfilled"]', 'sealed', '1234')`,
      [user.userId],
    );
    const rolledBack = '00000000-0000-4000-8000-000000000001';
    await expect(
      t.database.db.transaction(async (tx) => {
        await t.app.events.emit(tx, orderFulfilled(user.userId, rolledBack));
        throw new Error('the change fails after the event was reported');
      }),
    ).rejects.toThrow('the change fails');
    expect(await told(user.userId)).toEqual({ webhooks: 0, mails: 0, notices: 0 });

    await t.database.db.transaction(async (tx) => {
      await t.app.events.emit(tx, orderFulfilled(user.userId, '00000000-0000-4000-8000-000000000002'));
    });
    expect(await told(user.userId)).toEqual({ webhooks: 1, mails: 1, notices: 1 });
  });

  it('tells a batch the way it tells each event alone', async () => {
    const user = await registerUser(t);
    await t.database.pool.query(
      `INSERT INTO webhooks (user_id, url, events, secret_ciphertext, secret_hint)
       VALUES ($1, 'https://hooks.example.com/olympus', '["order.fulfilled"]', 'sealed', '1234')`,
      [user.userId],
    );
    await t.database.db.transaction(async (tx) => {
      await t.app.events.emitMany(tx, [
        orderFulfilled(user.userId, '00000000-0000-4000-8000-000000000003'),
        orderFulfilled(user.userId, '00000000-0000-4000-8000-000000000004'),
      ]);
    });
    expect(await told(user.userId)).toEqual({ webhooks: 2, mails: 2, notices: 2 });
  });
});
