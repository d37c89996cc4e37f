import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { emptyAsAbsent } from '#shared/schemas/common.js';
import { buildApp, type App } from '#server/app.js';
import { loadConfig } from '#server/config.js';
import { strictValidatorCompiler } from '#server/plugins/strict-input.js';
import { call, registerUser, startGuest, TEST_PASSWORD } from '../http.js';
import { createTestDatabase, enginesFor, startTestApp, type TestApp, type TestDatabase } from '../test-app.js';
import { createCallers, rowCounts, type Callers } from '../fixtures/bad-input.js';

/**
 * Strict input (decision 0110): the two defects found by hand (a NUL byte answered 500
 * wherever text reached PostgreSQL; `"amount": [100]` was credited as 100), the rules of the one
 * validator every route passes through, and the error handler's last line of defence.
 */

const NUL = 'a\u0000b';

function expectRefused(
  res: { status: number; json: { error?: string; code?: string; details?: { fields?: Record<string, string> } } },
  field: string,
) {
  expect(res.status, JSON.stringify(res.json)).toBe(400);
  expect(res.json.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.json.details?.fields ?? {})).toContain(field);
  expect(res.json.error?.toLowerCase()).toContain(field.toLowerCase());
}

describe.each(enginesFor('database'))('strict input on %s', (engine) => {
  let t: TestApp;
  let callers: Callers;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    callers = await createCallers(t);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  describe('a NUL character answers 400 naming the field, not 500, and stores nothing', () => {
    it('POST /api/login username', async () => {
      const res = await call(t, 'POST', '/api/login', {
        body: { username: `${callers.user.username}\u0000`, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      expectRefused(res, 'username');
      expect(res.json.error).toMatch(/NUL/);
    });

    it('POST /api/tickets subject and message, as a user and as a guest', async () => {
      const before = await rowCounts(t);
      const guest = { token: callers.guest.token, headers: callers.guest.headers };
      for (const [path, who] of [
        ['/api/tickets', { token: callers.user.token }],
        ['/api/tickets/guest', guest],
      ] as const) {
        expectRefused(await call(t, 'POST', path, { ...who, body: { subject: `Help ${NUL}`, message: 'A question.' } }), 'subject');
        expectRefused(await call(t, 'POST', path, { ...who, body: { subject: 'Help me', message: `A ${NUL} question.` } }), 'message');
      }
      expect(await rowCounts(t)).toEqual(before);
    });

    it('POST /api/status/incidents title and message', async () => {
      const before = await rowCounts(t);
      expectRefused(
        await call(t, 'POST', '/api/status/incidents', {
          token: callers.admin.token,
          body: { title: `Down ${NUL}`, message: 'Looking into it.' },
        }),
        'title',
      );
      expectRefused(
        await call(t, 'POST', '/api/status/incidents', {
          token: callers.admin.token,
          body: { title: 'Down again', message: `Looking ${NUL}` },
        }),
        'message',
      );
      expect(await rowCounts(t)).toEqual(before);
    });
  });

  describe('a JSON body carries the type the contract names', () => {
    it('refuses a deposit amount sent as an array, a string, a boolean, an object or 1e309', async () => {
      const before = await rowCounts(t);
      for (const amount of ['[100]', '"100"', 'true', '{"value":100}', '1e309', 'null']) {
        const res = await call(t, 'POST', '/api/payments/deposit', {
          token: callers.user.token,
          body: `{"crypto":"btc","amount":${amount}}`,
        });
        expectRefused(res, 'amount');
      }
      expect(await rowCounts(t)).toEqual(before);
      const ok = await call(t, 'POST', '/api/payments/deposit', { token: callers.user.token, body: { crypto: 'btc', amount: 100 } });
      expect(ok.status).toBe(201);
    });

    it('refuses a string sent as a number, an array or a boolean', async () => {
      for (const subject of [12345, ['Help me'], true]) {
        expectRefused(
          await call(t, 'POST', '/api/tickets', { token: callers.user.token, body: { subject, message: 'A question.' } }),
          'subject',
        );
      }
    });

    it('keeps the numeric strings the contract allows (Telegram ids: a number or its decimal text)', async () => {
      const asNumber = await call(t, 'POST', '/api/users/connect/telegram', { token: callers.other.token, body: { telegramId: 12345 } });
      const asText = await call(t, 'POST', '/api/users/connect/telegram', { token: callers.other.token, body: { telegramId: '12345' } });
      for (const res of [asNumber, asText]) expect(res.json.code).not.toBe('VALIDATION_ERROR');
    });
  });

  describe('text rules', () => {
    it('allows line breaks and tabs in a message, not in a single-line field', async () => {
      const ok = await call(t, 'POST', '/api/tickets', {
        token: callers.user.token,
        body: { subject: 'Two lines', message: 'First line\r\nsecond\tline' },
      });
      expect(ok.status).toBe(201);
      expect(ok.json.ticket.messages[0].body).toBe('First line\r\nsecond\tline');
      expectRefused(
        await call(t, 'POST', '/api/tickets', { token: callers.user.token, body: { subject: 'Two\nlines', message: 'A question.' } }),
        'subject',
      );
      expectRefused(
        await call(t, 'POST', '/api/tickets', { token: callers.user.token, body: { subject: 'Bell \u0007 here', message: 'A question.' } }),
        'subject',
      );
      expectRefused(
        await call(t, 'POST', '/api/tickets', { token: callers.user.token, body: { subject: 'C1 \u0085 here', message: 'A question.' } }),
        'subject',
      );
    });

    it('refuses lone UTF-16 surrogates and keeps real pairs (emoji)', async () => {
      const lone = await call(t, 'POST', '/api/tickets', {
        token: callers.user.token,
        body: '{"subject":"Broken \\ud800 text","message":"A question."}',
      });
      expectRefused(lone, 'subject');
      expect(lone.json.error).toMatch(/surrogate/);
      const lowFirst = await call(t, 'POST', '/api/tickets', {
        token: callers.user.token,
        body: '{"subject":"Broken \\udc00\\ud800 text","message":"A question."}',
      });
      expectRefused(lowFirst, 'subject');
      const emoji = await call(t, 'POST', '/api/tickets', {
        token: callers.user.token,
        body: { subject: 'Olympus 👩‍👩‍👧‍👦 𝕆', message: 'Fine.' },
      });
      expect(emoji.status).toBe(201);
    });

    it('refuses control characters in field names and nested values', async () => {
      const res = await call(t, 'POST', '/api/exchange/guest-rewards-status', {
        body: { claims: [{ exchangeId: 'x', claimCode: `code${NUL}` }] },
      });
      expectRefused(res, 'claims.0.claimCode');
      const key = await call(t, 'POST', '/api/tickets', {
        token: callers.user.token,
        body: { subject: 'Help me', message: 'A question.', 'x\u0000': 1 },
      });
      expect(key.status).toBe(400);
      expect(key.json.error).toMatch(/field name/);
    });

    it('in query strings and paths: NUL refused, numeric text fine, a repeated key refused', async () => {
      const token = callers.user.token;
      expectRefused(await call(t, 'GET', '/api/tickets?status=open%00', { token }), 'status');
      expect((await call(t, 'GET', '/api/tickets?page=2&pageSize=5', { token })).status).toBe(200);
      expectRefused(await call(t, 'GET', '/api/tickets?page=1&page=2', { token }), 'page');
      expectRefused(await call(t, 'GET', '/api/admin/users?search=a&search=b', { token: callers.admin.token }), 'search');
      expectRefused(await call(t, 'GET', '/api/payments/abc%00def', { token }), 'id');
      expect((await call(t, 'GET', '/api/payments/abcdef', { token })).status).toBe(404);
    });
  });

  it('a guest session still works with the rules (sanity)', async () => {
    const guest = await startGuest(t);
    expect(guest.token).toBeTruthy();
    const user = await registerUser(t);
    expect(user.userId).toBeTruthy();
  });
});

describe('the validator refuses to start an app whose body schema coerces', () => {
  async function ready(body: z.ZodType) {
    const app = Fastify();
    app.setValidatorCompiler(strictValidatorCompiler);
    app.post('/x', { schema: { body } }, async () => ({}));
    try {
      await app.ready();
    } finally {
      await app.close();
    }
  }

  it('z.coerce anywhere in a body', async () => {
    await expect(ready(z.object({ amount: z.coerce.number() }))).rejects.toThrow(/coerces its value/);
    await expect(ready(z.object({ items: z.array(z.object({ n: z.coerce.number().optional() })) }))).rejects.toThrow(/items\.\*\.n/);
  });

  it('z.preprocess in a body, but not emptyAsAbsent', async () => {
    await expect(ready(z.object({ n: z.preprocess(Number, z.number()) }))).rejects.toThrow(/preprocess/);
    await expect(ready(z.object({ code: emptyAsAbsent(z.string()), n: z.number() }))).resolves.toBeUndefined();
  });

  it('coercion is fine in a query string', async () => {
    const app = Fastify();
    app.setValidatorCompiler(strictValidatorCompiler);
    app.get('/x', { schema: { querystring: z.object({ n: z.coerce.number() }) } }, async (request) => request.query);
    await app.ready();
    expect((await app.inject('/x?n=5')).json()).toEqual({ n: 5 });
    await app.close();
  });
});

describe.each(enginesFor('database'))('a database data error caused by input, on %s', (engine) => {
  let db: TestDatabase;
  let app: App;
  const logged: Array<{ level: string; obj: unknown; msg: unknown }> = [];

  beforeAll(async () => {
    db = await createTestDatabase(engine);
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      LOG_LEVEL: 'silent',
      JWT_SECRET: randomBytes(32).toString('hex'),
      DATA_DIR: 'memory://',
    });
    app = await buildApp({ config, database: db.database, isMigrated: () => true });
    // A route that lets input through to the database unchecked, as a schema with a hole would.
    app.post('/api/test/unchecked', async (request) => {
      const { value, as } = request.body as { value: string; as: 'int' | 'text' | 'smallint' };
      const cast = as === 'int' ? sql`${value}::int` : as === 'smallint' ? sql`${value}::smallint` : sql`${value}::text`;
      await db.database.db.execute(sql`SELECT ${cast} AS v`);
      return { ok: true };
    });
    // Capture what the error handler logs for this request.
    app.addHook('onRequest', async (request) => {
      const capture = (level: string) => (obj: unknown, msg?: unknown) => logged.push({ level, obj, msg });
      request.log = { ...request.log, error: capture('error'), warn: capture('warn'), info: capture('info') } as typeof request.log;
    });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.dispose();
  });

  it.each([
    ['a NUL byte in text', 'text', 'secret-token-\u0000-value'],
    ['invalid text representation', 'int', 'secret-token-not-a-number'],
    ['numeric value out of range', 'smallint', '99999999'],
  ])('%s answers 400 and is logged as a bug without the request data', async (_name, as, value) => {
    logged.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/unchecked',
      payload: { value, as },
      headers: { authorization: 'Bearer secret-bearer-token' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    const errors = logged.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.msg)).toMatch(/bug/);
    const text = JSON.stringify(logged);
    expect(text).toMatch(/"code":"22/);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('99999999');
  });
});
