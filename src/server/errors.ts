import type { ErrorCode } from '#shared/error-codes.js';

/**
 * The one application error type: a status, a machine code and a message fit to show a person
 * (docs/product.md#api-conventions). Anything else thrown becomes a 500 without details.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Seconds, for 429 answers. */
  readonly retryAfter: number | undefined;

  constructor(status: number, code: ErrorCode, message: string, options: { details?: unknown; retryAfter?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError(400, 'BAD_REQUEST', message, { details });
export const unauthorized = (message = 'Authentication failed', code: ErrorCode = 'UNAUTHORIZED') => new AppError(401, code, message);
export const forbidden = (message = 'You do not have access to this resource') => new AppError(403, 'FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError(404, 'NOT_FOUND', message);
export const conflict = (message: string, details?: unknown) => new AppError(409, 'CONFLICT', message, { details });
export const unprocessable = (message: string, code: ErrorCode = 'RULE_BROKEN', details?: unknown) =>
  new AppError(422, code, message, { details });
export const tooManyRequests = (retryAfter: number) =>
  new AppError(429, 'RATE_LIMITED', `Too many requests. Try again in ${retryAfter} seconds.`, { retryAfter });
export const serviceUnavailable = (message = 'Service temporarily unavailable') => new AppError(503, 'UNAVAILABLE', message);
