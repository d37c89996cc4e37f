import type { FastifyInstance } from 'fastify';

/**
 * Lets the routes of `scope` (an encapsulated plugin, so no other route takes forms) read the small
 * form body of an RFC 8058 one-click unsubscribe POST, `List-Unsubscribe=One-Click`.
 */
export function acceptOneClickForms(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
}
