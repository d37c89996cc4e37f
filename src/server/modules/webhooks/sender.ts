import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { hostOf, TargetRefusedError, vetTarget, type VetOptions } from './address-policy.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Only the start of a receiver's answer is kept for the delivery log. */
export const RESPONSE_EXCERPT_BYTES = 1024;

/**
 * The start of an answer as text that is safe to store and show: at most RESPONSE_EXCERPT_BYTES bytes,
 * decoded as UTF-8 (a character cut in half becomes U+FFFD), control characters other than tab and
 * newline removed. A binary answer is described, not copied.
 */
export function textExcerpt(bytes: Buffer): string {
  const head = bytes.subarray(0, RESPONSE_EXCERPT_BYTES);
  if (head.includes(0)) return '[binary answer]';
  // \p{Cc} is every control character (U+0000-U+001F, U+007F-U+009F); tab and newline stay.
  return head
    .toString('utf8')
    .replace(/\r\n?/g, '\n')
    .replace(/[^\P{Cc}\t\n]/gu, '');
}

export interface OutgoingWebhook {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type SendResult =
  | { kind: 'answered'; statusCode: number; bodyExcerpt: string; durationMs: number }
  | { kind: 'network-error'; error: string; durationMs: number }
  | { kind: 'refused'; error: string; durationMs: number };

/**
 * A lookup that answers only the address we vetted: the socket connects exactly where the check said
 * it may, so a DNS answer that changes between check and connect (rebinding) changes nothing. Node asks
 * with `all: true` when it races address families; both forms are answered.
 */
export function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
}

/**
 * One POST to a webhook URL: checked target, pinned address, 10 s for the whole exchange, redirects
 * reported (never followed), answer body read only as far as the log needs.
 */
export async function sendWebhook(message: OutgoingWebhook, policy: VetOptions): Promise<SendResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let target;
  try {
    target = await vetTarget(message.url, policy);
  } catch (err) {
    if (err instanceof TargetRefusedError) return { kind: 'refused', error: err.message, durationMs: elapsed() };
    throw err;
  }
  const { url } = target;
  const client = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(message.body, 'utf8');

  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      {
        protocol: url.protocol,
        // The name, not the address: TLS checks the certificate against it and it is the Host header.
        host: hostOf(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: {
          ...message.headers,
          'content-type': 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Olympus-Webhooks/1.0',
        },
        lookup: pinnedLookup(target.address, target.family),
        // A fresh connection per delivery: a pooled socket could belong to an address checked earlier.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () =>
          finish({
            kind: 'answered',
            statusCode: response.statusCode ?? 0,
            bodyExcerpt: textExcerpt(Buffer.concat(chunks)),
            durationMs: elapsed(),
          }),
        );
        response.on('error', (err) => finish({ kind: 'network-error', error: describe(err), durationMs: elapsed() }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy(new Error(`No answer within ${DELIVERY_TIMEOUT_MS / 1000} seconds`));
    }, DELIVERY_TIMEOUT_MS);
    request.on('error', (err) => finish({ kind: 'network-error', error: describe(err), durationMs: elapsed() }));
    request.end(body);
  });
}

function describe(err: Error & { code?: string }): string {
  if (err.code === 'ECONNREFUSED') return 'Connection refused';
  if (err.code === 'ECONNRESET') return 'Connection reset by the receiver';
  if (err.code === 'ETIMEDOUT') return 'Connection timed out';
  if (err.code?.startsWith('ERR_TLS') || err.code?.includes('CERT')) return `TLS error: ${err.message}`;
  return err.message || err.code || 'Network error';
}
