import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, registerUser } from '../http.js';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';
import {
  answerProblems,
  createCallers,
  fingerprintDiff,
  listEndpoints,
  rawCall,
  jobsDone,
  settle,
  stateFingerprint,
  type Callers,
  type Endpoint,
} from '../fixtures/bad-input.js';

/**
 * Hostile input against every documented endpoint (docs/architecture.md#testing): random and malicious bodies,
 * query strings, headers and ids, sent by an anonymous caller, a guest, a user and an admin. The answer
 * is never a 5xx, never carries a stack trace or a source path, an error is always `{ error, code }`,
 * and a refused request stores nothing.
 */

const ENGINES = enginesFor('database');
/**
 * Random runs per endpoint, shared out between the engines (each draws its own inputs, so together
 * they send this many): about 180 endpoints, so this is the main knob for the file's run time. The
 * fuzzing adds to the deterministic proofs (strict-input, the mutation suite); it is not one of them.
 */
const RUNS_PER_ENDPOINT = Math.ceil(Number(process.env.BAD_INPUT_RUNS ?? 10) / ENGINES.length);
/** Replaying a failure: BAD_INPUT_SEED (and BAD_INPUT_ONLY, a substring of the endpoint, e.g. "POST /api/tickets"). */
const SEED = process.env.BAD_INPUT_SEED ? Number(process.env.BAD_INPUT_SEED) : undefined;
const ONLY = process.env.BAD_INPUT_ONLY;

const CLASSICS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(5)',
  '" OR ""="',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '${7*7}',
  '{{constructor.constructor("return process")()}}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF\u202E\u200B',
  '𝕆𝕝𝕪𝕞𝕡𝕦𝕤 👩‍👩‍👧‍👦',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '0x10',
  '00000000-0000-0000-0000-000000000000',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'http://169.254.169.254/latest/meta-data/',
  'file:///etc/passwd',
  'a'.repeat(10_001),
];

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...CLASSICS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 70_000 }).map((n) => 'x'.repeat(n)) },
);

const hostileNumber = fc.oneof(
  fc.constantFrom(-1, -0.01, 0, 0.001, 4.999, 5.005, 10_000.01, 1e21, -1e21, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 63)),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const pollutionKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf');

function hostileValue(keys: string[]) {
  const key =
    keys.length > 0
      ? fc.oneof(fc.constantFrom(...keys), pollutionKey, fc.string({ maxLength: 12 }))
      : fc.oneof(pollutionKey, fc.string({ maxLength: 12 }));
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      hostileString,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  })).value;
}

/** A JSON body built on the endpoint's own field names, each holding something hostile. */
function hostileBody(endpoint: Endpoint) {
  const fields = endpoint.bodyFields ?? [];
  const value = hostileValue(fields);
  const shaped =
    fields.length > 0
      ? fc.record(Object.fromEntries(fields.map((f) => [f, value])), { requiredKeys: [] }).map((o) => JSON.stringify(o))
      : value.map((v) => JSON.stringify(v) ?? 'null');
  const pollution = fc
    .tuple(fc.constantFrom(...(fields.length ? fields : ['x'])), hostileValue([]))
    .map(
      ([field, v]) =>
        `{"__proto__":{"role":"admin","isAdmin":true},"constructor":{"prototype":{"role":"admin"}},${JSON.stringify(field)}:${JSON.stringify(v) ?? 'null'}}`,
    );
  const deep = fc
    .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
    .map(([depth, objects]) => (objects ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}${']'.repeat(depth)}`));
  const broken = fc.constantFrom('', '{', '{"a":', 'not json', '{"a":1}garbage', '\u0000', '[1,2,', '{"a":1,"a":2}', 'null', '""', '1e999');
  return fc.oneof(
    { weight: 4, arbitrary: shaped },
    { weight: 2, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: pollution },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: broken },
  );
}

/** Percent-encodes the UTF-8 bytes of any string, lone surrogates included (encodeURIComponent throws on those). */
function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(c) ? c : `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;
  }
  return out;
}

/** Header values must be latin-1 without control characters, or fetch refuses to send them. */
const headerSafe = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => pct(c)).slice(0, 8000);

function hostileHeaders() {
  return fc.record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/json',
        'application/json; charset=utf-16',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/xml',
      ),
      'guest-id': hostileString.map(headerSafe),
      'x-request-id': hostileString.map(headerSafe),
      'accept-language': hostileString.map(headerSafe),
      'x-forwarded-for': fc.constantFrom('127.0.0.1', '::1, 10.0.0.1', 'garbage', '999.999.999.999'),
    },
    { requiredKeys: [] },
  );
}

type CallerKind = 'anonymous' | 'guest' | 'user' | 'admin' | 'forged';

describe.each(ENGINES)('hostile input on every endpoint on %s', (engine) => {
  let t: TestApp;
  let callers: Callers;
  let endpoints: Endpoint[];
  /** Ids of real rows, so hostile bodies also reach the code behind a successful lookup. */
  let realIds: string[];
  /** The count taken after the last refused call, while nothing has happened since. */
  let lastRefusal: Record<string, string | number> | null = null;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    callers = await createCallers(t);
    endpoints = await listEndpoints(t);
    const deposit = await call(t, 'POST', '/api/payments/deposit', { token: callers.user.token, body: { crypto: 'btc', amount: 20 } });
    const ticket = await call(t, 'POST', '/api/tickets', {
      token: callers.user.token,
      body: { subject: 'Hostile input', message: 'A ticket the fuzzer may poke at.', category: 'general' },
    });
    realIds = [callers.user.userId, callers.admin.userId, deposit.json.payment?._id, ticket.json.ticket?._id].filter(
      (x): x is string => typeof x === 'string',
    );
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A fuzzed call may sign a caller out (logout, disable, role change): give each endpoint live callers. */
  async function reviveCallers() {
    // Signing someone up writes rows: the next call counts afresh.
    lastRefusal = null;
    for (const name of ['user', 'admin'] as const) {
      const me = await call(t, 'GET', '/api/auth/me', { token: callers[name].token });
      const role = me.json.user?.role;
      if (me.status === 200 && (name === 'user' || role === 'admin')) continue;
      const fresh = await registerUser(t);
      if (name === 'admin') await setRole(t.database.db, fresh.userId, 'admin');
      callers[name] = { ...fresh };
    }
  }

  function authFor(kind: CallerKind): Record<string, string> {
    switch (kind) {
      case 'anonymous':
        return {};
      case 'guest':
        return { authorization: `Bearer ${callers.guest.token}`, 'guest-id': callers.guest.guestId };
      case 'user':
        return { authorization: `Bearer ${callers.user.token}` };
      case 'admin':
        return { authorization: `Bearer ${callers.admin.token}` };
      case 'forged': {
        // A real token with its payload swapped for an admin claim: the signature no longer matches.
        const [h, , s] = callers.user.token.split('.');
        const payload = Buffer.from(JSON.stringify({ sub: callers.admin.userId, role: 'admin', sid: randomUUID() })).toString('base64url');
        return { authorization: `Bearer ${h}.${payload}.${s}` };
      }
    }
  }

  async function send(endpoint: Endpoint, path: string, kind: CallerKind, body: string | undefined, headers: Record<string, string>) {
    const allHeaders = { ...headers, ...authFor(kind) };
    // The guest's own Guest-ID must stay with its token; a hostile one goes to the others.
    if (kind !== 'guest' && headers['guest-id'] !== undefined) allHeaders['guest-id'] = headers['guest-id'];
    // What earlier accepted calls queued (a notice's mail) is written before the count, not during it.
    const jobsRan = await jobsDone(t);
    // After a refusal that changed nothing, and with no job run since, the database is as that refusal
    // left it: its count serves as this call's "before" (counting is most of this file's time).
    const before = !jobsRan && lastRefusal ? lastRefusal : await stateFingerprint(t);
    lastRefusal = null;
    const { res, raw } = await rawCall(t, endpoint.method, path, { body, headers: allHeaders });
    const problems = answerProblems(res, raw);
    if (res.status < 400) await settle(t);
    else {
      const after = await stateFingerprint(t);
      const changed = fingerprintDiff(before, after);
      if (changed.length > 0) problems.push(`refused with ${res.status} but the database changed: ${changed.join('; ')}`);
      else lastRefusal = after;
    }
    return { status: res.status, problems, raw: raw.slice(0, 300) };
  }

  it(
    'answers every endpoint without a 5xx, a stack trace or a stored row on refusal',
    async () => {
      const seen: Record<string, Set<number>> = {};
      const chosen = ONLY ? endpoints.filter((e) => e.key.includes(ONLY)) : endpoints;
      for (const endpoint of chosen) {
        await reviveCallers();
        const segment = fc.oneof(
          { weight: 3, arbitrary: hostileString.map((s) => pct(s).slice(0, 400)) },
          { weight: 1, arbitrary: fc.constantFrom(...realIds, randomUUID(), '-1', '0', '1.5', '%2e%2e', '%00') },
        );
        const query = fc.array(
          fc.tuple(
            endpoint.queryParams.length
              ? fc.oneof(fc.constantFrom(...endpoint.queryParams), fc.string({ maxLength: 8 }))
              : fc.string({ maxLength: 8 }),
            fc.oneof(hostileString, hostileNumber.map(String)),
          ),
          { maxLength: 4 },
        );
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom<CallerKind>('anonymous', 'guest', 'user', 'admin', 'forged'),
            fc.array(segment, { minLength: endpoint.pathParams.length, maxLength: endpoint.pathParams.length }),
            query,
            fc.option(hostileBody(endpoint), { nil: undefined, freq: 6 }),
            hostileHeaders(),
            async (kind, ids, pairs, body, headers) => {
              let path = endpoint.path;
              endpoint.pathParams.forEach((name, i) => (path = path.replace(`{${name}}`, ids[i] ?? 'x')));
              const qs = pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&');
              const result = await send(endpoint, qs ? `${path}?${qs}` : path, kind, body, headers);
              (seen[endpoint.key] ??= new Set()).add(result.status);
              if (result.problems.length > 0)
                throw new Error(`${endpoint.key} as ${kind}: ${result.problems.join(' | ')}; answer ${result.status} ${result.raw}`);
            },
          ),
          {
            numRuns: RUNS_PER_ENDPOINT,
            endOnFailure: true,
            ...(SEED !== undefined ? { seed: SEED } : {}),
            // The default report prints the whole counterexample (70 KB strings); the seed replays it.
            reporter: (details) => {
              if (!details.failed) return;
              const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
              throw new Error(
                `${endpoint.key}: ${cause.slice(0, 1500)} (replay with seed ${details.seed}, path "${details.counterexamplePath}")`,
              );
            },
          },
        );
      }
      // The generator reached every endpoint (an endpoint that vanished from the docs would shrink this).
      expect(Object.keys(seen).length).toBe(chosen.length);
      expect(endpoints.length).toBeGreaterThan(60);
    },
    // Bounds for a loaded two-core machine (about 220 operations), not waits: a run takes a third of them.
    120_000 + RUNS_PER_ENDPOINT * 60_000,
  );

  // The same five bodies on every endpoint: a sweep, defined on one engine only (docs/decisions/0327-test-time-under-the-line.md).
  if (enginesFor('sweep').includes(engine))
    it('refuses the classic attacks on every endpoint the same way, as a signed-in user', async () => {
      const attacks: { name: string; body: string; headers?: Record<string, string> }[] = [
        { name: 'prototype pollution', body: '{"__proto__":{"role":"admin"},"constructor":{"prototype":{"isAdmin":true}}}' },
        { name: 'deep nesting', body: `${'['.repeat(100_000)}${']'.repeat(100_000)}`.slice(0, 60_000) },
        { name: 'oversized body', body: JSON.stringify({ message: 'x'.repeat(100_000) }) },
        { name: 'wrong content type', body: 'subject=a&message=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
        { name: 'array instead of object', body: '[{"amount":-5}]' },
      ];
      for (const endpoint of endpoints) {
        await reviveCallers();
        for (const attack of attacks) {
          let path = endpoint.path;
          for (const name of endpoint.pathParams) path = path.replace(`{${name}}`, encodeURIComponent("1' OR '1'='1"));
          const result = await send(endpoint, path, 'user', attack.body, { 'content-type': 'application/json', ...attack.headers });
          if (result.problems.length > 0)
            throw new Error(`${endpoint.key} (${attack.name}): ${result.problems.join(' | ')}; answer ${result.status} ${result.raw}`);
        }
      }
    }, 480_000);

  it('never lets a prototype-pollution body change a role or reach Object.prototype', async () => {
    const res = await rawCall(t, 'PUT', '/api/onboarding', {
      body: '{"completed":true,"__proto__":{"role":"admin"},"constructor":{"prototype":{"role":"admin"}}}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${callers.user.token}` },
    });
    expect(res.res.status).toBeLessThan(500);
    const me = await call(t, 'GET', '/api/auth/me', { token: callers.user.token });
    expect(me.json.user?.role ?? 'user').toBe('user');
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    const staff = await call(t, 'GET', '/api/admin/users', { token: callers.user.token });
    expect(staff.status).toBe(403);
  });
});
