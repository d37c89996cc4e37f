import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isEmptyAsAbsent, MULTILINE_KEY, textProblem } from '#shared/schemas/common.js';

/**
 * Strict input by construction (docs/decisions/0110): the one validator every route's body, query
 * string and path params pass through (app.setValidatorCompiler). A route cannot opt out, so a new
 * endpoint gets the same rules without anyone remembering them:
 *
 * - At route registration, the body schema is inspected: a `z.coerce.*` or a `z.preprocess` (other than
 *   `emptyAsAbsent`) anywhere in it stops the app from starting. A JSON body must carry the JSON type
 *   the contract names; `[100]`, `true` or `"100"` are never turned into a number.
 * - On every request, before the route's own schema: every string and every object key is refused when
 *   it holds NUL or another control character (tabs and line breaks only in fields marked
 *   `multiline`), or a lone UTF-16 surrogate; in the query string and path, a repeated key (an array) is
 *   refused unless the field is an array. The message names the field.
 */

type Segment = string | number;
const ANY = '*';

interface Policy {
  /** Paths (ANY for array items and record values) of text fields that may hold line breaks. */
  multiline: string[][];
  /** Paths of fields that are arrays (repeated query keys are allowed there). */
  arrays: string[][];
}

interface ZodNode {
  _zod: { def: Record<string, unknown> & { type: string } };
}

export class UnsafeSchemaError extends Error {
  override name = 'UnsafeSchemaError';
}

/** Reads the schema once, when the route is registered. */
export function inspectSchema(schema: unknown, httpPart: string | undefined, route: string): Policy {
  const policy: Policy = { multiline: [], arrays: [] };
  const seen = new Set<unknown>();
  const where = (path: string[]) => `${route} ${httpPart ?? ''} field "${path.join('.') || '(whole)'}"`;

  const walk = (node: ZodNode, path: string[], multiline: boolean): void => {
    if (!node?._zod || seen.has(node)) return;
    const meta = z.globalRegistry.get(node as unknown as z.ZodType) as Record<string, unknown> | undefined;
    const ml = multiline || meta?.[MULTILINE_KEY] === true;
    const def = node._zod.def;
    if (httpPart === 'body' && def.coerce === true) {
      throw new UnsafeSchemaError(`${where(path)} coerces its value (z.coerce): a JSON body takes the JSON type as sent`);
    }
    const child = (value: unknown, at: string[], inherit = ml) => walk(value as ZodNode, at, inherit);
    switch (def.type) {
      case 'object':
        for (const [key, value] of Object.entries(def.shape as Record<string, unknown>)) child(value, [...path, key], false);
        if (def.catchall) child(def.catchall, [...path, ANY], false);
        return;
      case 'array':
        policy.arrays.push(path);
        return child(def.element, [...path, ANY]);
      case 'set':
        policy.arrays.push(path);
        return child(def.valueType, [...path, ANY]);
      case 'record':
      case 'map':
        return child(def.valueType, [...path, ANY]);
      case 'tuple':
        for (const item of def.items as unknown[]) child(item, [...path, ANY]);
        if (def.rest) child(def.rest, [...path, ANY]);
        return;
      case 'union':
        for (const option of def.options as unknown[]) child(option, path);
        return;
      case 'intersection':
        child(def.left, path);
        return child(def.right, path);
      case 'pipe': {
        const input = (def.in as ZodNode)._zod.def;
        if (httpPart === 'body' && input.type === 'transform' && !isEmptyAsAbsent(node)) {
          throw new UnsafeSchemaError(`${where(path)} is preprocessed (z.preprocess): use the JSON type as sent, or emptyAsAbsent`);
        }
        child(def.in, path);
        return child(def.out, path);
      }
      case 'lazy':
        seen.add(node);
        return child((def.getter as () => unknown)(), path);
      case 'string':
        if (ml) policy.multiline.push(path);
        return;
      default:
        // optional, nullable, default, prefault, readonly, catch, nonoptional, success, promise...
        if (def.innerType) return child(def.innerType, path);
    }
  };
  walk(schema as ZodNode, [], false);
  return policy;
}

const matches = (pattern: string[], path: Segment[]) =>
  pattern.length === path.length && pattern.every((p, i) => p === ANY || p === String(path[i]));

interface InputIssue {
  path: Segment[];
  message: string;
}

/** What the rules refuse in one request part: at most one issue per field. */
export function inputIssues(data: unknown, policy: Policy, httpPart: string | undefined): InputIssue[] {
  const issues: InputIssue[] = [];
  const textOnly = httpPart === 'querystring' || httpPart === 'params';
  const label = (path: Segment[]) => (path.length ? path.join('.') : httpPart === 'body' ? 'The body' : 'The value');

  const walk = (value: unknown, path: Segment[], depth: number): void => {
    if (depth > 64) return; // the route's schema refuses deeper nesting on its own
    if (typeof value === 'string') {
      const problem = textProblem(
        value,
        policy.multiline.some((p) => matches(p, path)),
      );
      if (problem) issues.push({ path, message: `${label(path)} ${problem}` });
      return;
    }
    if (Array.isArray(value)) {
      if (textOnly && !policy.arrays.some((p) => matches(p, path))) {
        issues.push({ path, message: `${label(path)} must be given once (a single value)` });
        return;
      }
      value.forEach((item, i) => walk(item, [...path, i], depth + 1));
      return;
    }
    if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const problem = textProblem(key, false);
        if (problem) {
          // The name itself is not echoed: it is what is wrong.
          issues.push({ path: [...path, '(field name)'], message: `A field name ${problem}` });
          continue;
        }
        walk(item, [...path, key], depth + 1);
      }
    }
  };
  walk(data, [], 0);
  return issues;
}

/** The validator compiler of the whole app: the rules above, then the route's own Zod schema. */
export const strictValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (routeSchema) => {
  const { schema, httpPart, method, url } = routeSchema;
  const route = `${method} ${url}`;
  const policy = inspectSchema(schema, httpPart, route);
  const guarded = z
    .unknown()
    .superRefine((data, ctx) => {
      for (const issue of inputIssues(data, policy, httpPart)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    })
    .pipe(schema);
  return validatorCompiler({ ...routeSchema, schema: guarded });
};
