/**
 * Test helper: an api client whose calls matching a route are answered by the test (the others go to
 * the real client). For tests that fake the clock or script answers per call without a server; the
 * call files' own code (URLs, unwrapping, error messages) still runs. Use it in a vi.mock factory:
 *
 *   vi.mock('#web/lib/api-client', async (importOriginal) =>
 *     (await import('#web/test/routed-api')).withRoutes(await importOriginal(), { 'GET /api/things/:id': ([id]) => things.get(id) }),
 *   );
 */
import type * as ApiClient from '#web/lib/api-client';
import type { api as realApi } from '#web/lib/api-client';

type Api = typeof realApi;
/** Answers a call: `params` are the `:name` parts of the path (decoded), in order; `body` is what was sent. */
export type RouteHandler = (params: string[], body: unknown) => unknown;

export function routedApi(real: Api, routes: Record<string, RouteHandler>): Api {
  const table = Object.entries(routes).map(([key, handler]) => {
    const [method, pattern] = key.split(' ') as [string, string];
    const source = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '([^/?]+)');
    return { method, regex: new RegExp(`^${source}(?:\\?.*)?$`), handler };
  });
  const call = (method: string, fallback: (path: string, body?: unknown) => Promise<unknown>) => async (path: string, body?: unknown) => {
    for (const route of table) {
      const match = route.method === method ? route.regex.exec(path) : null;
      if (match) return route.handler(match.slice(1).map(decodeURIComponent), body);
    }
    return fallback(path, body);
  };
  return {
    get: call('GET', (path) => real.get(path)),
    post: call('POST', (path, body) => real.post(path, body)),
    put: call('PUT', (path, body) => real.put(path, body)),
    delete: call('DELETE', (path, body) => real.delete(path, body)),
  } as Api;
}

/** The api client module with its `api` answering from `routes` (the rest of the module as it is). */
export function withRoutes(real: typeof ApiClient, routes: Record<string, RouteHandler>): typeof ApiClient {
  return { ...real, api: routedApi(real.api, routes) };
}
