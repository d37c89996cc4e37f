import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';

describe.each(enginesFor('logic'))('health endpoints on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports the process up on /healthz', async () => {
    const res = await fetch(`${t.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('reports the database reachable and migrated on /readyz', async () => {
    const res = await fetch(`${t.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true } });
  });

  it('answers 503 on /readyz once the database is gone', async () => {
    const other = await startTestApp(engine);
    await other.database.close();
    const res = await fetch(`${other.url}/readyz`);
    expect(res.status).toBe(503);
    expect((await res.json()).checks.database).toBe(false);
    await other.close();
  });
});
