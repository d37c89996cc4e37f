import { createHash, randomBytes } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '#shared/schemas/two-factor.js';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** One code: 12 base32 characters (60 random bits), shown as `xxxx-xxxx-xxxx`. */
function newCode(): string {
  const bytes = randomBytes(12);
  let out = '';
  for (let i = 0; i < 12; i++) out += ALPHABET[bytes[i]! & 31];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8)}`;
}

export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
}

/** Lower case without dashes or spaces: what a person types is compared in this form. */
export function normalizeRecoveryCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toLowerCase();
}

/**
 * Salted with the user id: 60 random bits per code make a slow hash unnecessary, and the salt keeps a
 * copy of the table from being attacked for all users at once.
 */
export function hashRecoveryCode(userId: string, code: string): string {
  return createHash('sha256')
    .update(`olympus-recovery:${userId}:${normalizeRecoveryCode(code)}`)
    .digest('hex');
}
