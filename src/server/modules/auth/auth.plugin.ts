import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { API_KEY_FAMILY } from '#shared/schemas/charges.js';
import type { AppContext } from '#server/context.js';
import { AppError, forbidden, unauthorized } from '#server/errors.js';
import { userReadCache } from '#server/modules/users/user-read-cache.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { addRouteCheck } from '#server/plugins/route-checks.js';
import { SessionStore } from './sessions.service.js';
import { type SessionTokenClaims, verifySessionToken } from './tokens.js';

const MAX_VERIFIED_TOKENS = 10_000;

/**
 * Who may call a route: anyone (`public`), anyone with or without a session (`optional`), any session
 * (`session`: user or guest), a guest, a signed-in user, staff (support or admin), or an admin.
 */
export type AuthRequirement = 'public' | 'optional' | 'session' | 'guest' | 'user' | 'staff' | 'admin';

export interface AuthContext {
  sessionId: string;
  /** The user's id, or the guestId for a guest session. */
  subject: string;
  userId: string | null;
  guestId: string | null;
  isGuest: boolean;
  role: string;
  tokenExpiresAt: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
  interface FastifyInstance {
    sessions: SessionStore;
    /**
     * Enforces a rule on a request outside the route table's `auth` (the sandboxes' tools in production).
     * `cookie`: a page opened by the browser has no bearer header; the `token` cookie the web app keeps
     * stands in for it (GET pages only: the cookie is SameSite=Lax, and a change must carry the header).
     */
    requireCaller(
      request: FastifyRequest,
      requirement: Exclude<AuthRequirement, 'public' | 'optional'>,
      options?: { cookie?: boolean },
    ): Promise<void>;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The web app's `token` cookie (docs/product.md#browser-state), for pages the browser opens itself. */
function tokenCookie(request: FastifyRequest): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === 'token' && rest.length > 0) {
      try {
        return decodeURIComponent(rest.join('=')) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Resolves the caller from the bearer token and its session row, then enforces the route's rule. */
export function registerAuth(app: FastifyInstance, deps: AppContext): void {
  const store = new SessionStore(deps.database.db, () => deps.invalidation.live);
  // A session revoked anywhere (any instance, or by hand) is heard when it commits (migration 0018).
  deps.invalidation.onKey((kind, id) => {
    if (kind === 's') store.forget(id);
  });
  deps.invalidation.onReset(() => store.forgetAll());
  app.decorate('sessions', store);
  app.decorateRequest('auth', null);

  /**
   * A token's signature never changes, so a verified token's claims are remembered (bounded) and only
   * its expiry is checked again: a signed-in page fires several calls with the same token. Whether the
   * session still stands is asked separately on every call.
   */
  const verified = new Map<string, SessionTokenClaims>();
  function verifiedClaims(token: string): SessionTokenClaims | null {
    const known = verified.get(token);
    if (known) return known.exp > Date.now() / 1000 ? known : null;
    const claims = verifySessionToken(deps.config.jwtSecret, token);
    if (claims) {
      if (verified.size >= MAX_VERIFIED_TOKENS) verified.clear();
      verified.set(token, claims);
    }
    return claims;
  }

  async function authenticate(request: FastifyRequest, token = bearerToken(request)): Promise<AuthContext> {
    if (!token) throw unauthorized('Authentication required', 'NO_TOKEN');
    // API keys are for the charge API only (docs/decisions/0165), never a session.
    if (token.startsWith(API_KEY_FAMILY)) throw unauthorized('API keys work only on the charge API (/api/v1)', 'API_KEY_NOT_ACCEPTED');
    const claims = verifiedClaims(token);
    if (!claims) throw unauthorized('Invalid or expired token', 'INVALID_TOKEN');
    const session = await store.findActive(claims.sid);
    if (!session || session.isGuest !== claims.isGuest || (session.userId ?? session.guestId) !== claims.sub) {
      throw unauthorized('Session has ended. Please sign in again.', 'SESSION_ENDED');
    }
    if (session.isGuest) {
      // Guest-ID is trusted only when it matches the guest token (docs/product.md#accounts).
      const headerGuestId = request.headers['guest-id'];
      if (headerGuestId !== undefined && headerGuestId !== session.guestId) {
        throw unauthorized('Guest-ID does not match the session', 'GUEST_MISMATCH');
      }
    }
    return {
      sessionId: session.id,
      subject: claims.sub,
      userId: session.userId,
      guestId: session.guestId,
      isGuest: session.isGuest,
      role: session.isGuest ? 'guest' : claims.role,
      tokenExpiresAt: claims.exp,
    };
  }

  /** The route's rule, enforced after `authenticate` (which throws 401 without a valid session). */
  async function enforce(
    request: FastifyRequest,
    requirement: Exclude<AuthRequirement, 'public'>,
    token = bearerToken(request),
  ): Promise<void> {
    if (requirement === 'optional') {
      try {
        request.auth = await authenticate(request);
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        request.auth = null;
      }
      return;
    }
    const auth = await authenticate(request, token);
    request.auth = auth;
    switch (requirement) {
      case 'session':
        return;
      case 'guest':
        if (!auth.isGuest) throw forbidden('This call is for guest sessions');
        return;
      case 'user':
        if (auth.isGuest) throw forbidden('Sign in to use this feature');
        return;
      case 'staff':
      case 'admin': {
        if (auth.isGuest || !auth.userId) throw forbidden();
        // Roles can change; staff rights are read from the user row (cached, changes heard at once: decision 0170), not the token.
        const user = await userReadCache.get(auth.userId, (id) => findUserById(deps.database.db, id));
        const allowed = requirement === 'admin' ? ['admin'] : ['support', 'admin'];
        if (!user || !allowed.includes(user.role)) throw forbidden();
        auth.role = user.role;
        return;
      }
    }
  }

  app.decorate(
    'requireCaller',
    (request: FastifyRequest, requirement: Exclude<AuthRequirement, 'public' | 'optional'>, options: { cookie?: boolean } = {}) => {
      const token = bearerToken(request) ?? (options.cookie && request.method === 'GET' ? tokenCookie(request) : null);
      return enforce(request, requirement, token);
    },
  );

  /**
   * Each route's rule is known when the route is declared, so the check is attached to the routes that
   * need one (`addRouteCheck`) instead of one app-wide hook asking every request for its route's
   * options: public routes (health, the SPA) pay nothing, and an anonymous call to an `optional` route
   * (ad impressions) is answered without building (and catching) an error.
   * Every route of the API is declared after this (app.ts registers auth before the /api plugin); a
   * route with no `auth` is public, as before.
   */
  app.addHook('onRoute', (route) => {
    const requirement = (route.config as { auth?: AuthRequirement } | undefined)?.auth ?? 'public';
    if (requirement === 'public') return;
    const check: onRequestHookHandler = (request, _reply, done) => {
      if (requirement === 'optional' && bearerToken(request) === null) {
        done();
        return;
      }
      enforce(request, requirement).then(() => done(), done);
    };
    addRouteCheck(route, check);
  });
}

/** The signed-in user's id on a `user` route (the hook guarantees it). */
export function requireUserId(request: FastifyRequest): string {
  const id = request.auth?.userId;
  if (!id) throw unauthorized();
  return id;
}
