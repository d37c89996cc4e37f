import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';

/** Connection errors from `pg` when the database is down: answer 503, not 500 (design.md section 3). */
const DB_UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', '57P01', '57P02', '57P03', 'ETIMEDOUT', 'EPIPE', '08000', '08001', '08003', '08006']);
/** pg reports a dropped connection and a pool that cannot connect in time without a code. */
const DB_UNAVAILABLE_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** Whether the database being unreachable caused this error; Drizzle wraps driver errors (DrizzleQueryError.cause). */
function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && DB_UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && DB_UNAVAILABLE_MESSAGES.test(message)) return true;
    current = cause;
  }
  return false;
}

function fieldErrors(error: FastifyError): Record<string, string> {
  const out: Record<string, string> = {};
  if (hasZodFastifySchemaValidationErrors(error)) {
    for (const issue of error.validation) {
      const instancePath = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const key = instancePath || '_';
      out[key] ??= issue.message ?? 'Invalid value';
    }
  }
  return out;
}

/** One error handler: known errors keep their message, everything else is a bare 500 (no stack). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      return reply.status(error.status).send({
        error: error.message,
        code: error.code,
        ...(error.details !== undefined ? { details: error.details } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = fieldErrors(error);
      const first = Object.values(fields)[0];
      return reply.status(400).send({
        error: first ? `Invalid request: ${first}` : 'Invalid request',
        code: 'VALIDATION_ERROR',
        details: { fields, location: error.validationContext },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ error: 'Internal server error', code: 'INTERNAL' });
    }
    const code = (error as { code?: string }).code;
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(400).send({ error: 'Request body is too large', code: 'BODY_TOO_LARGE' });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ error: 'Unsupported content type; send JSON', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.status(503).header('Retry-After', '5').send({ error: 'Service temporarily unavailable', code: 'UNAVAILABLE' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, empty body with a JSON content type, bad URL.
      return reply.status(status).send({
        error: status === 400 ? `Malformed request: ${error.message}` : error.message,
        code: status === 400 ? 'MALFORMED_REQUEST' : (code ?? 'CLIENT_ERROR'),
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'Internal server error', code: 'INTERNAL' });
  });
}
