import { TOKEN_EXPIRY_MARGIN_S } from './constants.js';

export interface TokenClaims {
  sub?: string;
  sid?: string;
  iat?: number;
  exp?: number;
  isGuest?: boolean;
  role?: string;
}

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  // atob and TextDecoder exist in browsers and in Node.js alike.
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * Reads a token's claims without verifying it. Only for the browser's freshness check: the server
 * verifies every token's signature and session.
 */
export function readTokenClaims(token: string | null | undefined): TokenClaims | null {
  if (!token || typeof token !== 'string') return null;
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(parts[1]));
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return null;
    return claims as TokenClaims;
  } catch {
    return null;
  }
}

/**
 * docs/product.md#states: a token is expired when missing, unreadable, or within 300 seconds of its expiry.
 */
export function isTokenExpired(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  const claims = readTokenClaims(token);
  if (!claims || typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) return true;
  return claims.exp - TOKEN_EXPIRY_MARGIN_S <= nowMs / 1000;
}
