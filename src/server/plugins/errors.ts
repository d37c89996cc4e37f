import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '#server/errors.js';
import { ERROR_STATUS } from '#shared/error-codes.js';

/** Connection errors from `pg` when the database is down: answer 503, not 500 (docs/product.md#api-conventions). */
const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  '57P01',
  '57P02',
  '57P03',
  'ETIMEDOUT',
  'EPIPE',
  '08000',
  '08001',
  '08003',
  '08006',
]);
/** pg reports a dropped connection and a pool that cannot connect in time without a code. */
const DB_UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

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

/**
 * SQLSTATEs of a wait the database gave up (decision 0301): a row lock not granted within the lock
 * timeout, a deadlock, a serialization failure. Another change to the same rows was in the way; the
 * same request is expected to succeed when sent again.
 */
const DB_CONTENTION_CODES = new Set(['55P03', '40P01', '40001']);
/** A statement cancelled by the statement timeout (or an operator). */
const DB_CANCELLED_CODES = new Set(['57014']);

function sqlState(error: unknown, codes: Set<string>): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && codes.has(code)) return true;
    current = cause;
  }
  return false;
}

/**
 * SQLSTATEs of data the database refused because of what a request carried: invalid byte sequence (a
 * NUL byte in text), unsupported Unicode escape (NUL in JSON), numeric value out of range, invalid text
 * representation, string too long, bad date or time. Validation should have refused such input first,
 * so each one is a bug to fix in a schema; the caller still gets a 400, never a 500 (decision 0110).
 */
const DB_DATA_ERROR_CODES = new Set(['22021', '22P05', '22003', '22P02', '22001', '22007', '22008']);
const DB_DATA_ERROR_MESSAGES =
  /invalid byte sequence|unsupported Unicode escape sequence|cannot be converted to text|contains a null byte|out of range for type|invalid input syntax/i;

interface DbDataError {
  code: string | undefined;
  message: string;
  table?: string;
  column?: string;
  routine?: string;
}

/**
 * The driver error behind a data error, if this is one. Only the driver's own fields are kept: Drizzle's
 * wrapper message carries the query parameters (request data), and values quoted in the driver's message
 * are blanked, so no body, token or password reaches the log.
 */
function databaseDataError(error: unknown): DbDataError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const { code, message, cause, table, column, routine } = current as Record<string, unknown>;
    const known = typeof code === 'string' && DB_DATA_ERROR_CODES.has(code);
    const nulByte = typeof message === 'string' && !/^Failed query/.test(message) && DB_DATA_ERROR_MESSAGES.test(message);
    if (known || nulByte) {
      return {
        code: typeof code === 'string' ? code : undefined,
        message: typeof message === 'string' ? message.replace(/"[^"]*"/g, '"…"').slice(0, 200) : '',
        ...(typeof table === 'string' ? { table } : {}),
        ...(typeof column === 'string' ? { column } : {}),
        ...(typeof routine === 'string' ? { routine } : {}),
      };
    }
    current = cause;
  }
  return null;
}

/** The field to name in the message, unless the message names it already ("Invalid Telegram id"). */
function withField(field: string, message: string): string {
  if (field === '_') return message;
  const last = field.split('.').pop() ?? field;
  return new RegExp(`\\b${last.replace(/[^A-Za-z0-9_]/g, '')}\\b`, 'i').test(message) ? message : `${field}: ${message}`;
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
      const first = Object.entries(fields)[0];
      return reply.status(ERROR_STATUS.VALIDATION_ERROR).send({
        error: first ? `Invalid request: ${withField(first[0], first[1])}` : 'Invalid request',
        code: 'VALIDATION_ERROR',
        details: { fields, location: error.validationContext },
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(ERROR_STATUS.INTERNAL).send({ error: 'Internal server error', code: 'INTERNAL' });
    }
    const code = (error as { code?: string }).code;
    // Every route, whatever its own limit (64 KiB for JSON, 10 MB for attachments): 413 (decision 0212).
    if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return reply.status(ERROR_STATUS.BODY_TOO_LARGE).send({ error: 'Request body is too large', code: 'BODY_TOO_LARGE' });
    }
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .status(ERROR_STATUS.UNSUPPORTED_MEDIA_TYPE)
        .send({ error: 'Unsupported content type; send JSON', code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const dataError = databaseDataError(error);
    if (dataError) {
      request.log.error(
        { dbError: dataError, route: request.routeOptions.url },
        'bug: the database refused input that validation let through',
      );
      return reply
        .status(ERROR_STATUS.VALIDATION_ERROR)
        .send({ error: 'Invalid request: a value could not be stored', code: 'VALIDATION_ERROR' });
    }
    if (sqlState(error, DB_CONTENTION_CODES)) {
      request.log.warn({ route: request.routeOptions.url }, 'gave up waiting for a row lock');
      return reply.status(ERROR_STATUS.CONCURRENT_CHANGE).header('Retry-After', '1').send({
        error: 'Another change to the same account or item is still in progress. Try again in a moment.',
        code: 'CONCURRENT_CHANGE',
      });
    }
    if (sqlState(error, DB_CANCELLED_CODES)) {
      request.log.error({ route: request.routeOptions.url }, 'statement cancelled (statement timeout)');
      return reply
        .status(ERROR_STATUS.UNAVAILABLE)
        .header('Retry-After', '5')
        .send({ error: 'The request took too long. Try again in a moment.', code: 'UNAVAILABLE' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .status(ERROR_STATUS.UNAVAILABLE)
        .header('Retry-After', '5')
        .send({ error: 'Service temporarily unavailable', code: 'UNAVAILABLE' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, empty body with a JSON content type, bad URL. The one
      // place a status does not come from ERROR_STATUS: Fastify's status and code pass through as they are.
      return reply.status(status).send({
        error: status === 400 ? `Malformed request: ${error.message}` : error.message,
        code: status === 400 ? 'MALFORMED_REQUEST' : (code ?? 'CLIENT_ERROR'),
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(ERROR_STATUS.INTERNAL).send({ error: 'Internal server error', code: 'INTERNAL' });
  });
}
