import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

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

/**
 * Secrets are stored encrypted (AES-256-GCM) under a key derived from the server's own secret, so a
 * copy of the database alone does not let anyone forge deliveries. Replacing JWT_SECRET makes stored
 * secrets unreadable: deliveries then fail with a message asking to rotate the secret.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: Uint8Array) {
    this.key = Buffer.from(hkdfSync('sha256', serverSecret, Buffer.alloc(0), 'olympus webhook signing secrets v1', 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), data.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
  }

  /** The secret, or null when it was sealed under another key (or tampered with). */
  open(sealed: string): string | null {
    const [version, iv, data, tag] = sealed.split('.');
    if (version !== 'v1' || !iv || !data || !tag) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
