import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signing secrets and signatures per the Standard Webhooks specification (decision 0180). A secret is
 * `whsec_<base64 key>`; a message is signed as `v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`
 * in the `webhook-signature` header, several signatures separated by spaces (during a rotation's overlap).
 */

const SECRET_PREFIX = 'whsec_';
/** 24 random bytes: 32 base64 characters without padding, the length Svix issues. */
const SECRET_BYTES = 24;

export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** What the settings show after the one time the secret is shown in full. */
export function secretHint(secret: string): string {
  return `${SECRET_PREFIX}••••••••${secret.slice(-4)}`;
}

/**
 * The HMAC key behind a secret: the base64-decoded part after `whsec_`. Node's decoder reads both the
 * standard and the URL-safe alphabet, so secrets issued before Standard Webhooks (base64url text of 32
 * random bytes) keep their key.
 */
export function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, 'base64');
  if (key.length === 0) throw new Error('empty webhook secret');
  return key;
}

/** The same key written in the standard alphabet, as the `standardwebhooks` libraries expect it. */
export function standardSecret(secret: string): string {
  return `${SECRET_PREFIX}${secretKey(secret).toString('base64')}`;
}

/** One `v1,` signature of a message. */
export function signMessage(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', secretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret, space-separated (newest first). */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets.map((secret) => signMessage(secret, id, timestamp, body)).join(' ');
}

/** Constant-time check that any of a header's `v1,` signatures was made with `secret`. */
export function verifySignature(secret: string, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signMessage(secret, id, timestamp, body));
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
