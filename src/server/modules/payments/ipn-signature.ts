import { createHmac, timingSafeEqual } from 'node:crypto';

/** Keys sorted at every depth, as NOWPayments does before signing (docs/providers.md, SDK `src/ipn.js`). */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeysDeep((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** Hex HMAC-SHA-512, keyed with the IPN secret, of JSON.stringify of the body with sorted keys. */
export function signIpnPayload(payload: unknown, secret: string): string {
  return createHmac('sha512', secret)
    .update(JSON.stringify(sortKeysDeep(payload)))
    .digest('hex');
}

/** Constant-time check of `x-nowpayments-sig`. */
export function verifyIpnSignature(payload: unknown, signature: string | undefined, secret: string): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{128}$/.test(signature)) return false;
  const expected = Buffer.from(signIpnPayload(payload, secret), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
