import { z } from 'zod';

/**
 * The schema vocabulary every route uses (docs/decisions/0005, 0110 and 0111). A new endpoint takes
 * these pieces instead of writing its own:
 *
 * - `response: { 200: mySchema, ...errorResponses }`: one map of error answers, spread into every route.
 * - `params: idParamsSchema`: a path id (`/{id}`). Unknown ids answer 404 from the service; use
 *   `isUuid(id)` there before a database lookup.
 * - `querystring: paginationQuery().extend({ ...filters })`, and in the answer `...pageShape`.
 * - `uuidSchema` for a UUID field, `UUID_PATTERN` / `isUuid` for a UUID check in server code.
 * - Types: export `type X = z.infer<typeof xSchema>` beside each schema; the web imports them.
 *
 * Strict input (docs/decisions/0110): every route's body, query and params pass through one validator
 * (src/server/plugins/strict-input.ts), which
 * - refuses NUL and other control characters in every string and key, and lone UTF-16 surrogates;
 *   line breaks and tabs only in fields marked `multiline(...)` (ticket and incident messages);
 * - refuses repeated query keys (an array) unless the field is an array;
 * - refuses to start the app if a body schema coerces (`z.coerce.*`, or a `z.preprocess` other than
 *   `emptyAsAbsent`): a JSON body must carry the JSON type the contract names. Query strings and path
 *   params are text by nature, so `z.coerce.number()` is right there.
 */

// ---- Errors ---------------------------------------------------------------------------------------

/** Every error answer of the API (docs/product.md#api-conventions). */
export const errorResponseSchema = z
  .object({
    error: z.string(),
    code: z.string(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * The error answers any route may give, documented once (unkey's shared OpenAPI error map). Spread it
 * into every route's `response`: `{ 200: thingResponseSchema, ...errorResponses }`.
 */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  415: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
  500: errorResponseSchema,
  502: errorResponseSchema,
  503: errorResponseSchema,
} as const;

export const messageResponseSchema = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

// ---- Ids ------------------------------------------------------------------------------------------

/** A UUID in its text form, any version, any case (ids of rows). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID_PATTERN.test(value);

/** A UUID field: `uuidSchema` or, with the message a person sees, `uuidField('Unknown user')`. */
export const uuidField = (message = 'Invalid id') => z.string({ error: message }).regex(UUID_PATTERN, message);
export const uuidSchema = uuidField();

/** A path id (`/{id}`). Not checked as a UUID here: an id that names nothing answers 404, not 400. */
export const idParamsSchema = z.object({ id: z.string().min(1).max(100) });
export type IdParams = z.infer<typeof idParamsSchema>;

/** A path id that must be a UUID (400 with this message otherwise). */
export const uuidParamsSchema = (message = 'Invalid id') => z.object({ id: uuidField(message) });

// ---- Currencies ----------------------------------------------------------------------------------

/** A crypto ticker as the providers spell it (lower case: btc, usdttrc20, xrp...). */
export const tickerSchema = z
  .string({ error: 'Choose a currency' })
  .trim()
  .toLowerCase()
  .min(1, 'Choose a currency')
  .max(30, 'Unknown currency')
  .regex(/^[a-z0-9]+$/, 'Unknown currency');

// ---- Pages ----------------------------------------------------------------------------------------

export const PAGE_MAX = 10_000;
export const PAGE_SIZE_MAX = 100;

/** `?page=&pageSize=` (documenso's shared find contract); `.extend({...})` it with the list's filters. */
export const paginationQuery = (defaultPageSize = 20) =>
  z.object({
    page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
    pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(defaultPageSize),
  });
export const paginationQuerySchema = paginationQuery();
export type PaginationQuery = z.input<typeof paginationQuerySchema>;

/** The page fields of every list answer: `z.object({ items: z.array(item), ...pageShape })`. */
export const pageShape = {
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
};
export type PageInfo = { page: number; pageSize: number; total: number };

// ---- Keyset cursors (docs/decisions/0333) -------------------------------------------------------------

/** What a person reads when a `cursor` is not one the API gave out. */
export const INVALID_CURSOR_MESSAGE = 'Invalid cursor: pass the nextCursor of a previous page';

/**
 * An opaque keyset cursor: the sort key of the last row of a page, as text parts, in base64url. Clients
 * pass it back as it is (`?cursor=`); only the server reads it. Works in the browser and in Node (btoa/atob).
 */
export function encodeCursor(parts: string[]): string {
  const bytes = new TextEncoder().encode(parts.join('\n'));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The parts of a cursor made by encodeCursor, or null when it is not one (or has another number of parts). */
export function decodeCursor(cursor: string, partCount: number): string[] | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return null;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const text = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const parts = text.split('\n');
    return parts.length === partCount ? parts : null;
  } catch {
    return null;
  }
}

// ---- Strict input ---------------------------------------------------------------------------------

/** JSON-schema extension the strict validator reads: this text field may hold line breaks and tabs. */
export const MULTILINE_KEY = 'x-multiline';

/** Marks a text field that may hold line breaks and tabs (a message). Call it last in the chain. */
export const multiline = <T extends z.ZodType>(schema: T): T => schema.meta({ [MULTILINE_KEY]: true }) as T;

/**
 * Why a text is refused, or null when it is fine: C0 control characters (NUL included), DEL and C1
 * controls; tab, line feed and carriage return only in multi-line fields; and lone UTF-16 surrogates
 * (they cannot be stored as UTF-8).
 */
export function textProblem(value: string, allowLineBreaks: boolean): string | null {
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      if (allowLineBreaks && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return c === 0
        ? 'must not contain a NUL character'
        : c === 0x0a || c === 0x0d || c === 0x09
          ? 'must be a single line (no line breaks or tabs)'
          : 'must not contain control characters';
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i += 1;
        continue;
      }
      return 'must be valid Unicode text (lone surrogate)';
    }
    if (c >= 0xdc00 && c <= 0xdfff) return 'must be valid Unicode text (lone surrogate)';
  }
  return null;
}

const EMPTY_AS_ABSENT = new WeakSet<object>();

/**
 * An optional field the browser may send as null or '' when it has no value: both mean absent. The
 * only preprocess a body schema may use (it turns no type into another).
 */
export function emptyAsAbsent<T extends z.ZodType>(schema: T) {
  // Documented as nullable: null is part of the contract (it means absent).
  const out = z.preprocess((v) => (v === null || v === '' ? undefined : v), schema.optional()).meta({ nullable: true });
  EMPTY_AS_ABSENT.add(out);
  return out;
}
export const isEmptyAsAbsent = (schema: object): boolean => EMPTY_AS_ABSENT.has(schema);
