import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, enginesFor, type TestDatabase } from '#server/test/test-app.js';
import { InvalidationBus } from '#server/db/invalidation.js';

async function heard(keys: string[], want: string): Promise<void> {
  // The bus delivers on commit; bounded by the test's own timeout, not a fixed sleep.
  while (!keys.includes(want)) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe.each(enginesFor('database'))('the invalidation bus on %s', (engine) => {
  let test: TestDatabase;
  let bus: InvalidationBus;
  const keys: string[] = [];

  beforeAll(async () => {
    test = await createTestDatabase(engine);
    bus = new InvalidationBus(test.database);
    bus.onKey((kind, id) => keys.push(`${kind}:${id}`));
    await bus.start();
  });
  afterAll(async () => {
    await bus?.stop();
    await test?.dispose();
  });

  // The app's queries reach the embedded database through its socket; the notifications they raise
  // came back with their answer and were lost, so on the embedded database no cache or live stream
  // heard a change (docs/decisions/0316-one-live-channel.md).
  it('hears what the app’s own queries change, on commit only', async () => {
    expect(bus.live).toBe(true);
    await test.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`SELECT pg_notify('olympus_invalidate', 'rolled:back')`);
        tx.rollback();
      })
      .catch(() => {});
    await test.database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_notify('olympus_invalidate', 'u:one live:credits:two')`);
    });
    await heard(keys, 'live:credits:two');
    expect(keys).toEqual(['u:one', 'live:credits:two']);
  });
});
