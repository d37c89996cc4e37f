import * as OTPAuth from 'otpauth';

/** RFC 6238 as decision 0140 fixes it: SHA-1, 6 digits, 30-second steps, one step of drift either way. */
export const TOTP_PERIOD = 30;
export const TOTP_WINDOW = 1;
export const TOTP_ISSUER = 'Olympus';

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

function totpFor(secret: string, username = ''): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** `otpauth://totp/Olympus:<username>?secret=…&issuer=Olympus` (defaults SHA-1, 6 digits, 30 s). */
export function otpauthUrl(secret: string, username: string): string {
  return `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(username)}?secret=${secret}&issuer=${encodeURIComponent(TOTP_ISSUER)}`;
}

/** The time step a code belongs to when it is valid now (within the drift window), or null. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | null {
  const delta = totpFor(secret).validate({ token: code, timestamp: now, window: TOTP_WINDOW });
  if (delta === null) return null;
  return OTPAuth.TOTP.counter({ period: TOTP_PERIOD, timestamp: now }) + delta;
}
