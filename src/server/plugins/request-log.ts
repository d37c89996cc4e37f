import { hostname } from 'node:os';

const HEAD = '{"level":30,"time":';
const BINDINGS = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;

/**
 * The request log's line for one answered request (docs/decisions/0171), exactly as pino wrote it at
 * `info` from `request.log.info({ req, res, responseTime }, 'request completed')`, built directly: only
 * the request id, the method, the path without its query string (OAuth codes and mail tokens travel
 * there, decision 0176), the status and the time are ever in it, so it needs neither pino's serializers
 * nor its redaction, which cost several times the line itself on every request (docs/decisions/0192).
 */
export function requestLogLine(id: string, method: string, url: string, statusCode: number, elapsedMs: number): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const reqId = JSON.stringify(id);
  return `${HEAD}${Date.now()}${BINDINGS}${reqId},"req":{"id":${reqId},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)}},"res":{"statusCode":${statusCode}},"responseTime":${Math.round(elapsedMs * 10) / 10},"msg":"request completed"}\n`;
}
