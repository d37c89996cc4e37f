import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { textExcerpt } from './sender.js';
import { generateSecret, secretKey, signatureHeader, signMessage, standardSecret, verifySignature } from './signing.js';

describe('Standard Webhooks signing', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
  const body = '{"type":"webhook.test","data":{"n":1}}';

  it('matches the specification test vector', () => {
    // From the standard-webhooks reference libraries' tests.
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const signature = signMessage(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('signs so that the reference library verifies, with one secret or two', () => {
    const current = generateSecret();
    const previous = generateSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = (signature: string) => ({ 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature });
    const single = signatureHeader([current], id, timestamp, body);
    expect(new Webhook(current).verify(body, headers(single))).toEqual({ type: 'webhook.test', data: { n: 1 } });
    expect(() => new Webhook(previous).verify(body, headers(single))).toThrow();

    const both = signatureHeader([current, previous], id, timestamp, body);
    expect(both.split(' ')).toHaveLength(2);
    for (const secret of [current, previous]) {
      expect(new Webhook(secret).verify(body, headers(both))).toBeDefined();
      expect(verifySignature(secret, id, timestamp, body, both)).toBe(true);
    }
    expect(verifySignature(generateSecret(), id, timestamp, body, both)).toBe(false);
  });

  it('keeps the key of a secret issued before Standard Webhooks (base64url text)', () => {
    let bytes = randomBytes(32);
    // Make sure the URL-safe alphabet shows (the reference library refuses it as written).
    while (!/[-_]/.test(bytes.toString('base64url'))) bytes = randomBytes(32);
    const legacy = `whsec_${bytes.toString('base64url')}`;
    expect(secretKey(legacy)).toEqual(bytes);
    expect(() => new Webhook(legacy)).toThrow();
    // Written in the standard alphabet (what the README tells such users to do), it verifies.
    const converted = standardSecret(legacy);
    expect(converted).toBe(`whsec_${bytes.toString('base64')}`);
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = signatureHeader([legacy], id, timestamp, body);
    expect(
      new Webhook(converted).verify(body, { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }),
    ).toBeDefined();
  });
});

describe('response excerpts', () => {
  it('keeps at most 1 KB of text, without control characters', () => {
    expect(textExcerpt(Buffer.from('x'.repeat(5000)))).toHaveLength(1024);
    expect(textExcerpt(Buffer.from('a\tb\r\nc\u0000'))).toBe('[binary answer]');
    expect(textExcerpt(Buffer.from('a\tb\r\nc\u001b[0m\u007f'))).toBe('a\tb\nc[0m');
    expect(textExcerpt(Buffer.from(`${'a'.repeat(1023)}é`))).toBe(`${'a'.repeat(1023)}\uFFFD`);
  });
});
