import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { signSessionToken, verifySessionToken } from './tokens.js';

const secret = new TextEncoder().encode('a test secret that is at least thirty-two bytes long');
const claims = { sub: 'user-1', sid: 'session-1', isGuest: false, role: 'user' };
const inOneHour = () => new Date(Date.now() + 3600_000);
const now = () => Math.floor(Date.now() / 1000);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A compact HS256 token over any header and payload, signed with `key`. */
function handMade(header: unknown, payload: unknown, key: Uint8Array = secret): string {
  const signingInput = `${b64(header)}.${b64(payload)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}
const goodPayload = () => ({ ...claims, iat: now(), exp: now() + 60 });

describe('verifySessionToken', () => {
  it('accepts what signSessionToken signs, and answers its claims', async () => {
    const token = await signSessionToken(secret, { ...claims, expiresAt: inOneHour() });
    expect(verifySessionToken(secret, token)).toMatchObject({ ...claims, exp: expect.any(Number), iat: expect.any(Number) });
  });

  it('accepts a standard HS256 token without typ', () => {
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, goodPayload()))?.sid).toBe('session-1');
  });

  it('refuses another key, a changed payload and a changed signature', async () => {
    const token = await signSessionToken(secret, { ...claims, expiresAt: inOneHour() });
    const other = new TextEncoder().encode('another secret that is also thirty-two bytes long');
    expect(verifySessionToken(other, token)).toBeNull();
    const [h, , s] = token.split('.');
    expect(verifySessionToken(secret, `${h}.${b64({ ...goodPayload(), role: 'admin' })}.${s}`)).toBeNull();
    const flipped = s!.slice(0, 10) + (s![10] === 'A' ? 'B' : 'A') + s!.slice(11);
    expect(verifySessionToken(secret, `${h}.${token.split('.')[1]}.${flipped}`)).toBeNull();
  });

  it('refuses a non-canonical spelling of a valid signature', () => {
    const token = handMade({ alg: 'HS256', typ: 'JWT' }, goodPayload());
    const [h, p, s] = token.split('.') as [string, string, string];
    // The last character holds 2 data bits and 4 padding bits: flipping a padding bit decodes to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(s.at(-1)!);
    const twin = `${s.slice(0, -1)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(twin, 'base64url').equals(Buffer.from(s, 'base64url'))).toBe(true);
    expect(verifySessionToken(secret, `${h}.${p}.${twin}`)).toBeNull();
  });

  it("refuses 'alg: none', other algorithms and critical header parameters", async () => {
    const payload = goodPayload();
    expect(verifySessionToken(secret, `${b64({ alg: 'none', typ: 'JWT' })}.${b64(payload)}.`)).toBeNull();
    const hs512 = await new SignJWT(payload).setProtectedHeader({ alg: 'HS512' }).sign(secret);
    expect(verifySessionToken(secret, hs512)).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS512' }, payload))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256', crit: ['b64'], b64: false }, payload))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256', typ: 'at+jwt' }, payload))).toBeNull();
    expect(verifySessionToken(secret, handMade(['HS256'], payload))).toBeNull();
  });

  it('refuses expired and not-yet-valid tokens', () => {
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), exp: now() - 1 }))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), exp: now() }))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), nbf: now() + 60 }))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), nbf: 'soon' }))).toBeNull();
  });

  it('refuses tokens missing a claim or carrying one of the wrong type', () => {
    for (const key of ['sub', 'sid', 'isGuest', 'role', 'exp', 'iat'] as const) {
      const payload: Record<string, unknown> = goodPayload();
      delete payload[key];
      expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, payload)), key).toBeNull();
    }
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), isGuest: 'false' }))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, { ...goodPayload(), exp: String(now() + 60) }))).toBeNull();
    expect(verifySessionToken(secret, handMade({ alg: 'HS256' }, null))).toBeNull();
  });

  it('refuses malformed compact forms', () => {
    const token = handMade({ alg: 'HS256' }, goodPayload());
    for (const bad of [
      '',
      '.',
      '..',
      'a.b',
      `${token}.`,
      ` ${token}`,
      `${token}=`,
      token.replace('.', '.+'),
      `${'a'.repeat(5000)}.${token}`,
    ]) {
      expect(verifySessionToken(secret, bad), bad.slice(0, 30)).toBeNull();
    }
    const [h, p, s] = token.split('.') as [string, string, string];
    const notJson = Buffer.from('{not json').toString('base64url');
    const signedGarbage = (header: string, payload: string) =>
      `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
    expect(verifySessionToken(secret, signedGarbage(notJson, p))).toBeNull();
    expect(verifySessionToken(secret, signedGarbage(h, notJson))).toBeNull();
    expect(verifySessionToken(secret, `${h}.${p}.${s}${s}`)).toBeNull();
  });
});
