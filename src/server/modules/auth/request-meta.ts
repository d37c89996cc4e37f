import type { FastifyRequest } from 'fastify';
import type { RequestMeta } from './auth.service.js';

/**
 * The guest token a sign-in may carry as proof that the body's guestId is the caller's own: the
 * browser skips the Authorization header on login and register (docs/product.md#api) but sends its `token`
 * cookie, which holds the guest token while it is a guest. A bearer header counts too (API clients).
 */
function guestTokenOf(request: FastifyRequest): string | undefined {
  const bearer = request.headers.authorization;
  if (typeof bearer === 'string' && bearer.startsWith('Bearer ')) return bearer.slice(7).trim() || undefined;
  const cookies = request.headers.cookie;
  if (typeof cookies !== 'string') return undefined;
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === 'token') {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : undefined, guestToken: guestTokenOf(request) };
}
