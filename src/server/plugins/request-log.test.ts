import { hostname } from 'node:os';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { LazyChildLogger, requestLogLine } from './request-log.js';

/** The line pino (Fastify's logger) wrote for a request before request-log.ts: app.ts's logger options and call. */
async function pinoLine(request: { id: string; method: string; url: string }, statusCode: number, elapsedMs: number): Promise<string> {
  let line = '';
  const app = Fastify({
    logger: {
      level: 'info',
      serializers: {
        req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      },
      redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
      stream: { write: (s: string) => void (line = s) },
    },
  });
  app.log
    .child({ reqId: request.id }, {})
    .info({ req: request, res: { statusCode }, responseTime: Math.round(elapsedMs * 10) / 10 }, 'request completed');
  await app.close();
  return line;
}

const withoutTime = (line: string) => ({ ...(JSON.parse(line) as Record<string, unknown>), time: 0 });

describe('request log line (docs/decisions/0171, 0192)', () => {
  const cases = [
    { id: '0b6f1a7e-2c1d-4c47-9a3e-1d2f3a4b5c6d', method: 'GET', url: '/api/auth/me' },
    { id: 'client-id_1.2', method: 'POST', url: '/api/auth/verify-email?token=secret-token-value&x=1' },
    { id: 'abcdefgh', method: 'GET', url: '/caf\u00e9/"quoted"\\back?code=oauth-code' },
    { id: 'abcdefgh', method: 'DELETE', url: '/?' },
  ];

  it.each(cases)('is what pino wrote, field for field and in order: $method $url', async (request) => {
    const ours = requestLogLine(request.id, request.method, request.url, 404, 1.234567);
    const theirs = await pinoLine(request, 404, 1.234567);
    expect(ours.endsWith('\n')).toBe(true);
    expect(withoutTime(ours)).toEqual(withoutTime(theirs));
    expect(Object.keys(JSON.parse(ours) as object)).toEqual(Object.keys(JSON.parse(theirs) as object));
    expect(JSON.parse(ours)).toMatchObject({ level: 30, pid: process.pid, hostname: hostname(), msg: 'request completed' });
  });

  it('never carries the query string', () => {
    const line = requestLogLine('abcdefgh', 'GET', '/api/mail/unsubscribe?token=t0k3n', 200, 0.4);
    expect(line).not.toContain('t0k3n');
    expect(JSON.parse(line)).toMatchObject({ req: { path: '/api/mail/unsubscribe' }, res: { statusCode: 200 }, responseTime: 0.4 });
  });
});

describe('request.log made on first use (LazyChildLogger)', () => {
  async function linesOf(lazy: boolean): Promise<string[]> {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'debug', stream: { write: (s: string) => void lines.push(s) } },
      genReqId: () => 'fixed-request-id',
      logController: new LogController({ disableRequestLogging: true }),
      ...(lazy ? { childLoggerFactory: (logger, bindings, options) => new LazyChildLogger(logger, bindings, options) } : {}),
    });
    app.get('/quiet', async () => ({ ok: true }));
    app.get('/talks', async (request) => {
      request.log.info('plain message');
      request.log.warn({ detail: { n: 1 } }, 'with an object %s', 'and an argument');
      request.log.debug('debug is on');
      request.log.trace('trace is off');
      request.log.child({ part: 'inner' }).error('from a child');
      return { level: request.log.level };
    });
    expect((await app.inject({ method: 'GET', url: '/quiet' })).statusCode).toBe(200);
    const talks = await app.inject({ method: 'GET', url: '/talks' });
    expect(talks.json()).toEqual({ level: 'debug' });
    await app.close();
    return lines.map((l) => JSON.stringify({ ...(JSON.parse(l) as Record<string, unknown>), time: 0 }));
  }

  it('writes the same lines as the child Fastify makes', async () => {
    const eager = await linesOf(false);
    const lazy = await linesOf(true);
    expect(lazy).toEqual(eager);
    expect(lazy).toHaveLength(4);
    expect(lazy.every((l) => l.includes('"reqId":"fixed-request-id"'))).toBe(true);
  });
});
