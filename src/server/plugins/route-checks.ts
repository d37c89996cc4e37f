import type { onRequestHookHandler, RouteOptions } from 'fastify';

const inserted = new WeakMap<object, number>();

/**
 * Adds a check to a route being declared (from an `onRoute` hook): an `onRequest` hook that runs after
 * the app-wide ones and after the checks added to this route before it, but before any `onRequest` the
 * route declares itself, the order app-wide hooks had. Checks that depend on the route's `config` are
 * attached this way to the routes that need them, so other routes do not run them at all.
 */
export function addRouteCheck(route: RouteOptions, check: onRequestHookHandler): void {
  const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? [...route.onRequest] : [route.onRequest];
  const at = inserted.get(route) ?? 0;
  own.splice(at, 0, check);
  inserted.set(route, at + 1);
  route.onRequest = own;
}
