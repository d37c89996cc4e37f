import { setRole } from '../modules/users/users.service.js';
import { call, registerUser, startGuest, type JsonResponse } from '../test/http.js';
import type { TestApp } from '../test/test-app.js';

/** One operation of the public API, as the OpenAPI document at /api/docs describes it. */
export interface Endpoint {
  method: string;
  /** OpenAPI template, e.g. `/api/payments/{id}/status`. */
  path: string;
  key: string;
  pathParams: string[];
  queryParams: string[];
  /** Top-level property names of the JSON body, when the operation takes one. */
  bodyFields: string[] | null;
  secured: boolean;
}

type OpenApiParameter = { in: string; name: string };
type OpenApiOperation = {
  parameters?: OpenApiParameter[];
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};

/**
 * Every documented endpoint. Read from the running app, so an endpoint added later is covered by the
 * hostile-input suite without anyone editing it (and the authorization matrix fails until it has a row).
 */
export async function listEndpoints(t: TestApp): Promise<Endpoint[]> {
  const doc = (await (await fetch(`${t.url}/api/docs`)).json()) as { paths: Record<string, Record<string, OpenApiOperation>> };
  const out: Endpoint[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const params = op.parameters ?? [];
      const json = op.requestBody?.content?.['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: params.filter((p) => p.in === 'query').map((p) => p.name),
        bodyFields: op.requestBody ? Object.keys(json?.properties ?? {}) : null,
        secured: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return out;
}

export interface Caller {
  token?: string;
  headers?: Record<string, string>;
}

export interface Account {
  userId: string;
  username: string;
  token: string;
}

export interface Callers {
  anonymous: Caller;
  guest: Caller & { guestId: string };
  user: Caller & Account;
  other: Caller & Account;
  support: Caller & Account;
  admin: Caller & Account;
}

export type CallerName = keyof Callers;
export const CALLER_NAMES: CallerName[] = ['anonymous', 'guest', 'other', 'user', 'support', 'admin'];

/** A guest, two plain users, a support agent and an admin, each with a live session. */
export async function createCallers(t: TestApp): Promise<Callers> {
  const guest = await startGuest(t);
  const user = await registerUser(t);
  const other = await registerUser(t);
  const support = await registerUser(t);
  const admin = await registerUser(t);
  await setRole(t.database.db, support.userId, 'support');
  await setRole(t.database.db, admin.userId, 'admin');
  return {
    anonymous: {},
    guest: { token: guest.token, guestId: guest.guestId, headers: { 'guest-id': guest.guestId } },
    user: { ...user },
    other: { ...other },
    support: { ...support },
    admin: { ...admin },
  };
}

/**
 * Tables whose rows change without any request being accepted: rate-limit counters count refusals
 * on purpose (that is how brute force is slowed down), and the status checks run every minute.
 */
const VOLATILE_TABLES = new Set(['rate_limit_counters', 'status_checks', 'status_daily']);

/** Row count of every application table, in one query (pg-boss keeps its own schema and is left out). */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const tables = await t.database.pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const names = tables.rows.map((r) => r.table_name).filter((n) => !VOLATILE_TABLES.has(n) && !n.startsWith('__drizzle'));
  const sql = names.map((n) => `SELECT '${n}' AS t, count(*)::int AS n FROM "${n}"`).join(' UNION ALL ');
  const counts = await t.database.pool.query<{ t: string; n: number }>(sql);
  return Object.fromEntries(counts.rows.map((r) => [r.t, r.n]));
}

/** A fingerprint of the rows refusals must never touch: users' roles, balances and disabled flags, sessions. */
export async function stateFingerprint(t: TestApp): Promise<Record<string, string | number>> {
  const counts = await rowCounts(t);
  const users = await t.database.pool.query<{ v: string | null }>(
    `SELECT string_agg(id::text || ':' || role || ':' || coalesce(disabled_at::text, '-'), ',' ORDER BY id) AS v FROM users`,
  );
  return { ...counts, 'users.role+disabled': users.rows[0]?.v ?? '' };
}

/**
 * Waits until the database stops changing (bounded): staff actions are written to the audit log
 * just after their answer is sent, so an accepted call can still be writing when the next one starts.
 */
export async function settle(t: TestApp, maxMs = 2000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let last = JSON.stringify(await stateFingerprint(t));
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = JSON.stringify(await stateFingerprint(t));
    if (now === last) return;
    last = now;
  }
}

/** What differs between two fingerprints, e.g. `sessions 5 -> 6`; empty when nothing changed. */
export function fingerprintDiff(before: Record<string, string | number>, after: Record<string, string | number>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).map((k) => `${k} ${before[k]} -> ${after[k]}`);
}

const STACK_PATTERNS = [/\n\s+at\s/, /node_modules/, /\/src\/server\//, /\.(?:ts|js):\d+:\d+/, /"stack"\s*:/];

/** Problems with an answer to a request: any 5xx, a stack trace or a source path in the body, a non-JSON API error. */
export function answerProblems(res: JsonResponse, raw: string): string[] {
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`status ${res.status}`);
  for (const pattern of STACK_PATTERNS) if (pattern.test(raw)) problems.push(`body matches ${pattern}`);
  // 431 comes from Node's HTTP parser before the app sees the request (headers over 16 KiB).
  if (res.status >= 400 && res.status !== 431) {
    const body = res.json as { error?: unknown; code?: unknown };
    if (typeof body?.error !== 'string' || typeof body?.code !== 'string') problems.push('error answer is not { error, code }');
  }
  return problems;
}

/** One request with full control of the raw body and headers; answers the parsed answer and its raw text. */
export async function rawCall(
  t: TestApp,
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string> } = {},
): Promise<{ res: JsonResponse; raw: string }> {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers: options.headers ?? {},
    ...(options.body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body: options.body } : {}),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const raw = await response.text();
  let json: unknown = {};
  try {
    json = raw ? JSON.parse(raw) : {};
  } catch {
    json = { raw };
  }
  return { res: { status: response.status, headers: response.headers, json }, raw };
}

export { call };

export const ETH_ADDRESS = '0x742d35Cc6634C0532925a3b844Bc454e4438f44e';

/** One of each resource the API has ids for, owned by `callers.user` (tickets: also one of the guest). */
export interface Resources {
  /** A throwaway account admins may re-role, disable and credit. */
  targetId: string;
  paymentId: string;
  ticketId: string;
  guestTicketId: string;
  exchangeId: string;
  adId: string;
  incidentId: string;
}

export async function createResources(t: TestApp, callers: Callers): Promise<Resources> {
  const target = await registerUser(t);
  const u = callers.user.token;
  const a = callers.admin.token;
  const g = { token: callers.guest.token, headers: callers.guest.headers };
  const payment = await call(t, 'POST', '/api/payments/deposit', { token: u, body: { crypto: 'btc', amount: 20 } });
  const ticket = await call(t, 'POST', '/api/tickets', { token: u, body: { subject: 'Fixture', message: 'The owner asks.', category: 'general' } });
  const guestTicket = await call(t, 'POST', '/api/tickets/guest', { ...g, body: { subject: 'Fixture', message: 'A guest asks.', category: 'general' } });
  const exchange = await call(t, 'POST', '/api/exchange/exchanges', { token: u, body: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS } });
  const ad = await call(t, 'POST', '/api/staff/ads', { token: a, body: { placement: 'home-banner', title: 'Fixture ad', targetUrl: 'https://example.com/' } });
  const incident = await call(t, 'POST', '/api/status/incidents', { token: a, body: { title: 'Fixture incident', message: 'Looking.' } });
  const ids = {
    paymentId: payment.json.payment?._id,
    ticketId: ticket.json.ticket?._id,
    guestTicketId: guestTicket.json.ticket?._id,
    exchangeId: exchange.json.data?.exchange?._id,
    adId: ad.json.ad?._id,
    incidentId: incident.json.incident?._id,
  };
  for (const [name, id] of Object.entries(ids)) if (typeof id !== 'string') throw new Error(`fixture ${name} was not created`);
  return { targetId: target.userId, ...(ids as Record<keyof typeof ids, string>) };
}
