import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export interface SessionTokenClaims {
  sub: string;
  sid: string;
  isGuest: boolean;
  role: string;
  iat: number;
  exp: number;
}

const ALGORITHM = 'HS256';

/** Signs a session token (docs/product.md#accounts: HS256, claims sub, sid, iat, exp, isGuest, role). */
export async function signSessionToken(
  secret: Uint8Array,
  claims: { sub: string; sid: string; isGuest: boolean; role: string; expiresAt: Date },
): Promise<string> {
  return new SignJWT({ sid: claims.sid, isGuest: claims.isGuest, role: claims.role })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(secret);
}

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** An HMAC-SHA256 signature is 32 bytes: 43 base64url characters without padding. */
const SIGNATURE_LENGTH = 43;
const MAX_TOKEN_LENGTH = 4096;

function decodeJson(segment: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Verifies signature (algorithm pinned, so `alg: none` and swapped algorithms fail) and expiry.
 *
 * This runs on every authenticated request, so it uses node:crypto's HMAC directly rather than
 * jose's WebCrypto path, which imports the key and hops to the thread pool on each call and cost a
 * sixth of the server's CPU under load (docs/decisions/0091-request-hot-path.md). The checks are the
 * ones jose makes for HS256: strict compact form, constant-time signature comparison before any
 * parsing, header `alg` pinned with no `crit`, `exp` in the future, `nbf` (if any) not ahead.
 */
export function verifySessionToken(secret: Uint8Array, token: string): SessionTokenClaims | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts as [string, string, string];
  if (!SEGMENT.test(header) || !SEGMENT.test(payload) || signature.length !== SIGNATURE_LENGTH || !SEGMENT.test(signature)) {
    return null;
  }
  const expected = createHmac('sha256', secret).update(`${header}.${payload}`).digest();
  const given = Buffer.from(signature, 'base64url');
  // The 43rd character carries 4 unused bits; only the canonical spelling of the signature passes.
  if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== signature) {
    return null;
  }

  const protectedHeader = decodeJson(header);
  if (!protectedHeader || protectedHeader.alg !== ALGORITHM || 'crit' in protectedHeader) return null;
  if (protectedHeader.typ !== undefined && protectedHeader.typ !== 'JWT') return null;

  const claims = decodeJson(payload);
  if (
    !claims ||
    typeof claims.sub !== 'string' ||
    typeof claims.sid !== 'string' ||
    typeof claims.isGuest !== 'boolean' ||
    typeof claims.role !== 'string' ||
    typeof claims.exp !== 'number' ||
    typeof claims.iat !== 'number'
  ) {
    return null;
  }
  const now = Math.floor(Date.now() / 1000);
  if (claims.exp <= now) return null;
  if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > now)) return null;
  return claims as unknown as SessionTokenClaims;
}
