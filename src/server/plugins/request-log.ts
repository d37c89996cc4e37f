import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;

const HEAD = '{"level":30,"time":';
const BINDINGS = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;

/**
 * The request log's line for one answered request (docs/decisions/0171), exactly as pino wrote it at
 * `info` from `request.log.info({ req, res, responseTime }, 'request completed')`, built directly: only
 * the request id, the method, the path without its query string (OAuth codes and mail tokens travel
 * there, decision 0176), the status and the time are ever in it, so it needs neither pino's serializers
 * nor its redaction, which cost several times the line itself on every request (docs/decisions/0192).
 */
export function requestLogLine(id: string, method: string, url: string, statusCode: number, elapsedMs: number, traceId?: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const reqId = JSON.stringify(id);
  // With traces on (decision 0272), the request's trace id: a log line leads to its trace and back.
  const trace = traceId === undefined ? '' : `,"traceId":${JSON.stringify(traceId)}`;
  return `${HEAD}${Date.now()}${BINDINGS}${reqId},"req":{"id":${reqId},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)}},"res":{"statusCode":${statusCode}},"responseTime":${Math.round(elapsedMs * 10) / 10}${trace},"msg":"request completed"}\n`;
}

type LogMethod = (...args: unknown[]) => void;

/**
 * Each request's logger (`request.log`), made only when something is logged through it. Fastify asks
 * for a pino child logger (with the request id bound) for every request; now that the request log is
 * written above, most requests never log anything else, and making the child (binding serialisation,
 * formatters) was a fixed cost per request. The first call makes the same child Fastify would have
 * made, and every call goes to it: lines are unchanged.
 */
export class LazyChildLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.childBindings, this.options));
  }

  private call(method: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace', args: unknown[]): void {
    const logger = this.logger;
    (logger[method] as LogMethod).apply(logger, args);
  }

  get level(): string {
    return this.logger.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: unknown[]): void {
    this.call('fatal', args);
  }
  error(...args: unknown[]): void {
    this.call('error', args);
  }
  warn(...args: unknown[]): void {
    this.call('warn', args);
  }
  info(...args: unknown[]): void {
    this.call('info', args);
  }
  debug(...args: unknown[]): void {
    this.call('debug', args);
  }
  trace(...args: unknown[]): void {
    this.call('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
