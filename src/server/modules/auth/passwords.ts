import { createRequire } from 'node:module';
import argon2 from 'argon2';

/** OWASP's argon2id minimum (m=19 MiB, t=2, p=1). Stored as a PHC string, so it can be raised later. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Burns the same work as a real verification, so a login for an unknown user takes about as long as
 * one with a wrong password (docs/product.md#accounts).
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('olympus-dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}

export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, ARGON2_OPTIONS);
}

// The most common passwords, ranked (from zxcvbn's list built from leaked-password corpora).
// Only those long enough to pass the length rule matter; we keep the top 10,000 of the ranked list.
const COMMON_PASSWORD_COUNT = 10_000;
let commonPasswords: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    const require = createRequire(import.meta.url);
    const ranked = require('@zxcvbn-ts/language-common/src/passwords.json') as string[];
    commonPasswords = new Set(ranked.slice(0, COMMON_PASSWORD_COUNT).map((p) => p.toLowerCase()));
  }
  return commonPasswords.has(password.toLowerCase());
}
