import { ERROR_STATUS, type CodeWithStatus, type ErrorCode } from '#shared/error-codes.js';

/**
 * The one application error type: a machine code and a message fit to show a person
 * (docs/product.md#api-conventions); the code decides the status (`ERROR_STATUS`). Anything else thrown
 * becomes a 500 without details.
 */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: unknown;
  /** Seconds, for 429 answers. */
  readonly retryAfter: number | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: unknown; retryAfter?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
    this.code = code;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

export const badRequest = (message: string, details?: unknown) => new AppError('BAD_REQUEST', message, { details });
export const unauthorized = (message = 'Authentication failed', code: CodeWithStatus<401> = 'UNAUTHORIZED') => new AppError(code, message);
export const forbidden = (message = 'You do not have access to this resource') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
export const conflict = (message: string, details?: unknown) => new AppError('CONFLICT', message, { details });
export const unprocessable = (message: string, code: CodeWithStatus<422> = 'RULE_BROKEN', details?: unknown) =>
  new AppError(code, message, { details });
export const tooManyRequests = (retryAfter: number) =>
  new AppError('RATE_LIMITED', `Too many requests. Try again in ${retryAfter} seconds.`, { retryAfter, details: { retryAfter } });
export const serviceUnavailable = (message = 'Service temporarily unavailable') => new AppError('UNAVAILABLE', message);
