import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RequestMeta } from './auth.service.js';

/**
 * The guest token a sign-in may carry as proof that the body's guestId is the caller's own: the
 * browser skips the Authorization header on login and register (docs/product.md#api) but sends its `token`
 * cookie, which holds the guest token while it is a guest. A bearer header counts too (API clients).
 */
function guestTokenOf(request: FastifyRequest): string | undefined {
  const bearer = request.headers.authorization;
  if (typeof bearer === 'string' && bearer.startsWith('Bearer ')) return bearer.slice(7).trim() || undefined;
  return cookieOf(request, 'token');
}

function cookieOf(request: FastifyRequest, name: string): string | undefined {
  const cookies = request.headers.cookie;
  if (typeof cookies !== 'string') return undefined;
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** The browser's own id (docs/product.md#referrals): random, kept in an HttpOnly cookie for two years. */
export const DEVICE_COOKIE = 'device';
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;
const DEVICE_COOKIE_MAX_AGE_S = 2 * 365 * 24 * 3600;

/**
 * Who is asking: address, user agent, guest token, and the browser's device id. A user agent is shared by
 * everyone on the same browser version, so the device is told apart by a random id of its own, which a
 * session remembers: two accounts signed in from one browser share it (a self-referral signal). A browser
 * without the cookie gets a fresh id here, and the cookie with it once a session is opened
 * (`rememberDevice`): a password alone that only earns a two-factor challenge sets nothing.
 */
export function requestMeta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  const known = cookieOf(request, DEVICE_COOKIE);
  const deviceId = known && DEVICE_ID.test(known) ? known : undefined;
  return {
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua : undefined,
    guestToken: guestTokenOf(request),
    deviceId: deviceId ?? randomBytes(16).toString('base64url'),
    newDevice: !deviceId,
  };
}

/** Gives the browser its device cookie when `meta` made it a new id (call once a session is opened). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, meta: RequestMeta): void {
  if (!meta.newDevice || !meta.deviceId) return;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${DEVICE_COOKIE}=${meta.deviceId}; Path=/; Max-Age=${DEVICE_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
  );
}
