import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing secrets and signatures (design.md section 10). Receivers verify
 * `X-Olympus-Signature: v1=<hex HMAC-SHA-256(secret, "<X-Olympus-Timestamp>.<raw body>")>`;
 * the timestamp inside the signed text lets them refuse old replays.
 */

const SECRET_PREFIX = 'whsec_';

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** What the settings show after the one time the secret is shown in full. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}••••••••${secret.slice(-4)}`;
}

export function signPayload(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** For receivers written in TypeScript, and for our tests: constant-time check of one signature header. */
export function verifySignature(secret: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signPayload(secret, timestamp, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
