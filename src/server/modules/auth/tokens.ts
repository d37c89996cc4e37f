import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';

export interface SessionTokenClaims {
  sub: string;
  sid: string;
  isGuest: boolean;
  role: string;
  iat: number;
  exp: number;
}

const ALGORITHM = 'HS256';

/** Signs a session token (design.md section 4: HS256, claims sub, sid, iat, exp, isGuest, role). */
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

/** Verifies signature (algorithm pinned, so `alg: none` and swapped algorithms fail) and expiry. */
export async function verifySessionToken(secret: Uint8Array, token: string): Promise<SessionTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: [ALGORITHM] });
    if (
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.isGuest !== 'boolean' ||
      typeof payload.role !== 'string' ||
      typeof payload.exp !== 'number' ||
      typeof payload.iat !== 'number'
    ) {
      return null;
    }
    return payload as unknown as SessionTokenClaims;
  } catch (err) {
    if (err instanceof joseErrors.JOSEError || err instanceof TypeError) return null;
    throw err;
  }
}
