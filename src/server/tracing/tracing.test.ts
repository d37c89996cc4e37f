import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signIpnPayload } from '#server/modules/payments/ipn-signature.js';
import { createTestDatabase, enginesFor, type Engine } from '#server/test/test-app.js';

/**
 * Traces (decision 0272) from the real server process: OpenTelemetry patches `http`, `pg` and
 * `fastify` as they load, which it cannot do inside Vitest's own process, so the server runs as a
 * child (src/server/server.ts under tsx, as `npm run dev` does) exporting OTLP/HTTP (JSON) to a
 * receiver in this process.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SANDBOX_IPN_SECRET = 'sandbox-ipn-secret';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/**
 * An OTLP/HTTP receiver: POST /v1/traces. Keeps every span of the JSON encoding; counts the posts in
 * the protobuf encoding (the default) without decoding them.
 */
async function startReceiver(): Promise<{
  url: string;
  spans: OtlpSpan[];
  posts: () => number;
  protobufPosts: () => number;
  close: () => Promise<void>;
}> {
  const spans: OtlpSpan[] = [];
  let posts = 0;
  let protobufPosts = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (
        req.method === 'POST' &&
        req.url === '/v1/traces' &&
        String(req.headers['content-type']) === 'application/x-protobuf' &&
        body.length > 0
      ) {
        protobufPosts++;
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        return;
      }
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('json')) {
        res.writeHead(415).end();
        return;
      }
      posts++;
      const message = JSON.parse(body) as { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
      for (const resource of message.resourceSpans ?? []) for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    posts: () => posts,
    protobufPosts: () => protobufPosts,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** A user's webhook receiver: answers 200 and keeps the bodies. */
async function startWebhookReceiver(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

interface ServerProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 300_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return { child, url, output: () => output, exited };
}

async function stopServer(server: ServerProcess): Promise<number | null> {
  server.child.kill('SIGTERM');
  return Promise.race([
    server.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit 20 s after SIGTERM:\n${server.output()}`)), 20_000)),
  ]);
}

async function until<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function api(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return {
    status: res.status,
    json: (text ? JSON.parse(text) : null) as Record<string, unknown> & {
      payment: { providerPaymentId: string };
      token: string;
      user?: { _id: string };
    },
  };
}

const attribute = (span: OtlpSpan, key: string) => span.attributes?.find((a) => a.key === key)?.value.stringValue;
/** The SQL of a pg span (the attribute's name changed across semantic-convention versions). */
const statement = (span: OtlpSpan) => attribute(span, 'db.query.text') ?? attribute(span, 'db.statement') ?? '';

async function storageFor(engine: Engine): Promise<{ env: Record<string, string>; dispose: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'olympus-traces-'));
  const cleanDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (engine === 'pglite') return { env: { DATA_DIR: dataDir }, dispose: async () => cleanDir() };
  const db = await createTestDatabase('postgres');
  const env = { DATA_DIR: dataDir, DATABASE_URL: db.database.connectionString };
  await db.database.close();
  return {
    env,
    dispose: async () => {
      await db.dispose();
      cleanDir();
    },
  };
}

/** Registers a user, subscribes a webhook to finished payments, opens a deposit and posts its signed IPN. */
async function paidDepositWithWebhook(base: string, webhookUrl: string) {
  const username = `tr_${Math.random().toString(36).slice(2, 10)}`;
  const registered = await api(base, 'POST', '/api/register', {
    body: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
  });
  expect(registered.status).toBe(201);
  const token = registered.json.token as string;
  const saved = await api(base, 'PUT', '/api/users/webhook-settings', {
    token,
    body: { url: `${webhookUrl}/hook`, events: ['payment.finished'], enabled: true },
  });
  expect(saved.status).toBe(200);
  const deposit = await api(base, 'POST', '/api/payments/deposit', { token, body: { crypto: 'btc', amount: 100 } });
  expect(deposit.status).toBe(201);
  const providerPaymentId = deposit.json.payment.providerPaymentId as string;
  const provider = await fetch(`${base}/sandbox/nowpayments/v1/payment/${providerPaymentId}`, {
    headers: { 'x-api-key': 'sandbox-api-key' },
  });
  expect(provider.status).toBe(200);
  const body = { ...((await provider.json()) as Record<string, unknown>), payment_status: 'finished' };
  const ipn = await api(base, 'POST', '/api/payments/ipn', {
    body,
    headers: { 'x-nowpayments-sig': signIpnPayload(body, SANDBOX_IPN_SECRET) },
  });
  expect(ipn.status).toBe(200);
  const credits = await api(base, 'GET', `/api/users/${registered.json.user?._id ?? registered.json.userId}/credits`, { token });
  return { token, credits, ipnRequestId: undefined as string | undefined };
}

describe.each(enginesFor('logic'))('traces on %s', (engine) => {
  let storage: Awaited<ReturnType<typeof storageFor>>;
  let running: ServerProcess | undefined;
  beforeAll(async () => {
    storage = await storageFor(engine);
  });
  afterEach(() => {
    if (running && running.child.exitCode === null) running.child.kill('SIGKILL');
    running = undefined;
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  it('follows a signed IPN in one trace: the request, the ledger write and the webhook delivery job', async () => {
    const receiver = await startReceiver();
    const hooks = await startWebhookReceiver();
    try {
      const server = (running = await startServer({
        ...storage.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
        OTEL_SERVICE_NAME: 'olympus-test',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
      }));
      await paidDepositWithWebhook(server.url, hooks.url);
      await until('the webhook delivery', () => hooks.bodies.length > 0);
      expect(JSON.parse(hooks.bodies[0]!)).toMatchObject({ type: 'payment.finished' });

      // The IPN's server span (the root of its trace: NOWPayments sends no trace context).
      const ipnSpan = await until('the IPN span', () =>
        receiver.spans.find(
          (s) =>
            s.kind === 2 &&
            /POST/.test(s.name) &&
            (attribute(s, 'http.route') === '/api/payments/ipn' || attribute(s, 'url.path') === '/api/payments/ipn'),
        ),
      );
      const traceId = ipnSpan.traceId;
      if (process.env.TRACE_DUMP) (await import('node:fs')).writeFileSync(process.env.TRACE_DUMP, JSON.stringify(receiver.spans, null, 1));
      const inTrace = () => receiver.spans.filter((s) => s.traceId === traceId);
      const job = await until('the delivery job span in the same trace', () => inTrace().find((s) => s.name === 'job webhooks.deliver'));
      const ledgerWrite = inTrace().find((s) => /insert into "?credit_ledger_entries"?/i.test(statement(s)));
      expect(
        ledgerWrite,
        inTrace()
          .map((s) => `${s.name} ${statement(s).slice(0, 60)}`)
          .join('\n'),
      ).toBeDefined();
      // The job continues the trace of the request that queued it, and its own work (the delivery's POST
      // to the receiver) is inside it.
      const byId = new Map(inTrace().map((s) => [s.spanId, s]));
      const ancestors = (span: OtlpSpan) => {
        const chain: OtlpSpan[] = [];
        for (let p = span.parentSpanId && byId.get(span.parentSpanId); p; p = p.parentSpanId && byId.get(p.parentSpanId)) chain.push(p);
        return chain;
      };
      expect(ancestors(ledgerWrite!)).toContain(ipnSpan);
      expect(job.parentSpanId).toBeTruthy();
      const delivery = await until('the delivery POST inside the job', () =>
        inTrace().find((s) => s.kind === 3 && ancestors(s).includes(job)),
      );
      expect(delivery).toBeDefined();

      // The request log line of the IPN carries the same trace id.
      await until('the IPN log line', () => server.output().includes('"path":"/api/payments/ipn"'));
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes('"path":"/api/payments/ipn"') && l.includes('request completed'))!;
      expect(JSON.parse(line)).toMatchObject({ traceId, res: { statusCode: 200 } });
      expect(await stopServer(server)).toBe(0);
    } finally {
      await receiver.close();
      await hooks.close();
    }
  }, 600_000);

  it('exports in the protobuf encoding when no protocol is named', async () => {
    const receiver = await startReceiver();
    try {
      const server = (running = await startServer({
        ...storage.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '200',
      }));
      expect((await api(server.url, 'GET', '/api/status')).status).toBe(200);
      await until('a protobuf export', () => receiver.protobufPosts() > 0);
      expect(receiver.posts()).toBe(0);
      expect(await stopServer(server)).toBe(0);
    } finally {
      await receiver.close();
    }
  }, 600_000);

  it('loads nothing and sends nothing when OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
    const receiver = await startReceiver();
    const hooks = await startWebhookReceiver();
    try {
      const server = (running = await startServer({ ...storage.env, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1', OTEL_BSP_SCHEDULE_DELAY: '200' }));
      await paidDepositWithWebhook(server.url, hooks.url);
      await until('the webhook delivery', () => hooks.bodies.length > 0);
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('request completed'));
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) expect(JSON.parse(line)).not.toHaveProperty('traceId');
      // The job's data carried no trace either: the delivery went out as before.
      expect(JSON.parse(hooks.bodies[0]!)).toMatchObject({ type: 'payment.finished' });
      // Stopped, the process has flushed whatever spans it had (server.ts): an export would have arrived by now.
      expect(await stopServer(server)).toBe(0);
      expect(receiver.posts()).toBe(0);
    } finally {
      await receiver.close();
      await hooks.close();
    }
  }, 600_000);
});
