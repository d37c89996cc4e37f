import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCampaignBodySchema } from '#shared/schemas/ads';
import { passwordSchema } from '#shared/schemas/auth';
import { textProblem } from '#shared/schemas/common';
import { webhookUrlSchema } from '#shared/schemas/webhooks';
import { activateLocale } from '#web/features/language';
import {
  hasValidationTranslation,
  isTranslatedZodDefault,
  KNOWN_VALIDATION_MESSAGES,
  translateValidationMessage,
} from './validation-messages';

/**
 * Every schema file of src/shared/schemas, twice: as modules, to walk the schemas they export, and as
 * source text, for the messages written inside refinement functions. A new schema file is in both lists
 * without a change here.
 */
const schemaModules = import.meta.glob<Record<string, unknown>>(['../../shared/schemas/*.ts', '!../../shared/schemas/*.test.ts'], {
  eager: true,
});
const schemaSources = import.meta.glob<string>(['../../shared/schemas/*.ts', '!../../shared/schemas/*.test.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

interface ZodNode {
  _zod?: { def?: Record<string, unknown> };
}

/**
 * What a schema's or a check's error setting says: zod keeps a message given as text as a function
 * returning it. An error map that words its message from the issue cannot be read here, so it is
 * reported as a message of its own, which has no entry and fails the test.
 */
function messageOf(error: unknown): string | undefined {
  if (typeof error !== 'function') return undefined;
  const unreadable = '(an error map this test cannot read)';
  try {
    const said = (error as (issue: unknown) => unknown)({ code: 'custom', input: undefined, path: [], message: '' });
    if (typeof said === 'string') return said;
    if (said && typeof (said as { message?: unknown }).message === 'string') return (said as { message: string }).message;
    return unreadable;
  } catch {
    return unreadable;
  }
}

/**
 * The messages the schemas carry, found by walking each exported schema's definition (`_zod.def`): the
 * schema's own `error`, every check's (`.min(3, '…')`, `.refine(fn, '…')`, `.refine(fn, { message })`)
 * and every inner schema's (object shapes, arrays, optional, default, pipe, union...). This reads the
 * values the schemas were built with, so a message made by a helper (`uuidField('Unknown item')`,
 * `cents('Budget', …)`, `timeField('start')`) is found as a person would read it. What a walk cannot
 * see are messages written inside a refinement's function (`ctx.addIssue({ message })`): those are
 * read from the source, where they are always a `message:` literal.
 */
function schemaMessages(modules: Record<string, Record<string, unknown>>): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    const def = (value as ZodNode)._zod?.def;
    if (def) {
      const message = messageOf(def.error);
      if (message !== undefined) found.add(message);
      for (const [key, inner] of Object.entries(def)) if (key !== 'error') visit(inner);
      return;
    }
    if (Object.getPrototypeOf(value) === Object.prototype) Object.values(value).forEach(visit);
  };
  for (const exports of Object.values(modules)) Object.values(exports).forEach(visit);
  return found;
}

/** The `message:` literals of the schema sources ('…', "…" or `…` with `${…}` in it). */
function sourceMessages(sources: Record<string, string>): { file: string; text: string; template: boolean }[] {
  const out: { file: string; text: string; template: boolean }[] = [];
  const literal = /\bmessage:\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`([^`]*)`)/g;
  for (const [file, source] of Object.entries(sources)) {
    for (const match of source.matchAll(literal)) {
      const quoted = match[1] ?? match[2];
      if (quoted !== undefined) out.push({ file, text: quoted.replace(/\\(.)/g, '$1'), template: false });
      else out.push({ file, text: match[3]!, template: true });
    }
  }
  return out;
}

/** A template's message is known when a key reads as it does with its values, or a pattern takes it. */
function templateKnown(template: string): boolean {
  const parts = template.split(/\$\{[^}]*\}/);
  const shape = new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
  return KNOWN_VALIDATION_MESSAGES.some((key) => shape.test(key)) || hasValidationTranslation(parts.join('1'));
}

afterEach(async () => {
  await activateLocale('en');
});

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message ?? '';

describe("the shared schemas' messages in the page's language", () => {
  it('leaves English exactly as the schemas word it', () => {
    for (const message of KNOWN_VALIDATION_MESSAGES) expect(translateValidationMessage(message)).toBe(message);
    expect(translateValidationMessage('Budget must be at least 10.00 credits')).toBe('Budget must be at least 10.00 credits');
    expect(translateValidationMessage('Something else entirely')).toBe('Something else entirely');
  });

  it('knows the messages the schemas actually give', () => {
    const password = firstMessage(passwordSchema.safeParse('short'));
    const url = firstMessage(webhookUrlSchema.safeParse('not a url'));
    expect(KNOWN_VALIDATION_MESSAGES).toContain(password);
    expect(KNOWN_VALIDATION_MESSAGES).toContain(url);
    expect(KNOWN_VALIDATION_MESSAGES).toContain(firstMessage(createCampaignBodySchema.safeParse({})));
  });

  it('has an entry for every message of every schema file in src/shared/schemas', () => {
    expect(Object.keys(schemaModules).length).toBeGreaterThanOrEqual(24);
    expect(Object.keys(schemaSources)).toEqual(Object.keys(schemaModules));
    const walked = schemaMessages(schemaModules);
    // The walk reaches inside the schemas (a message given as a check's text, one from a helper, one of a refine's options).
    expect(walked).toContain('Subject must be at least 3 characters');
    expect(walked).toContain('Unknown item');
    expect(walked).toContain('Enter the start time as HH:MM, e.g. 09:00');
    expect(walked).toContain('The end date must not be before the start date');
    expect([...walked].filter((message) => !hasValidationTranslation(message))).toEqual([]);

    const written = sourceMessages(schemaSources);
    expect(written.map((m) => m.text)).toContain('Choose at least one event, or turn the webhook off');
    const missing = written.filter((m) => (m.template ? !templateKnown(m.text) : !hasValidationTranslation(m.text)));
    expect(missing).toEqual([]);
  });

  it('has an entry for the text problems of src/shared/schemas/common.ts, after any field name', () => {
    const problems = ['\0', '\n', '\u0001', '\ud800'].map((sample) => textProblem(sample, false));
    expect(new Set(problems).size).toBe(4);
    for (const problem of problems) {
      for (const field of ['subject', 'items.0.name', 'The body', 'The value', 'A field name']) {
        expect(hasValidationTranslation(`${field} ${problem!}`)).toBe(true);
      }
    }
  });

  it('translates them, values kept', async () => {
    await activateLocale('de');
    expect(translateValidationMessage('Title is required')).toBe('Titel ist erforderlich');
    expect(translateValidationMessage('Password must be at least 8 characters')).toBe('Das Passwort muss mindestens 8 Zeichen lang sein');
    expect(translateValidationMessage('Budget must be at least 10.00 credits')).toBe('Das Budget muss mindestens 10.00 Credits betragen');
    expect(translateValidationMessage('Message must be at most 5000 characters')).toBe(
      'Die Nachricht darf höchstens 5000 Zeichen lang sein',
    );
    expect(translateValidationMessage('The body must not contain control characters')).toBe(
      'Der Anfragetext darf keine Steuerzeichen enthalten',
    );
    await activateLocale('es');
    expect(translateValidationMessage('The URL must start with https://')).toBe('La URL debe empezar por https://');
    expect(translateValidationMessage('Subject must be at least 3 characters')).toBe('El asunto debe tener al menos 3 caracteres');
    expect(translateValidationMessage('Enter the start time as HH:MM, e.g. 09:00')).toBe(
      'Introduce la hora de inicio como HH:MM, p. ej., 09:00',
    );
    await activateLocale('ru');
    expect(translateValidationMessage('subject must be a single line (no line breaks or tabs)')).toBe(
      'subject: допускается только одна строка (без переносов строк и табуляции)',
    );
    expect(translateValidationMessage('At most 10 tags')).toBe('Не более 10 тегов');
  });
});

/** What a person is told for a value: an entry of its own, or zod's own English worded by its shape. */
const translated = (message: string) => hasValidationTranslation(message) || isTranslatedZodDefault(message);

/**
 * Bad values for every schema and every field of an object schema (missing, of another type, empty,
 * far too long, a list, an object): the messages a person can be shown for a field without its own.
 */
function messagesForBadInput(modules: Record<string, Record<string, unknown>>): Map<string, string> {
  const found = new Map<string, string>();
  const bad: unknown[] = [undefined, null, 12345, -1, 1.5, '', ' ', 'x', 'x'.repeat(100_001), [], [1], {}, true];
  const collect = (where: string, schema: z.ZodType, value: unknown) => {
    try {
      const result = schema.safeParse(value);
      for (const issue of result.error?.issues ?? []) if (!found.has(issue.message)) found.set(issue.message, where);
    } catch {
      // A refinement that cannot read such a value throws; the schema's own checks ran before it.
    }
  };
  for (const [file, exports] of Object.entries(modules)) {
    for (const [name, schema] of Object.entries(exports)) {
      if (!(schema instanceof z.ZodType)) continue;
      for (const value of bad) collect(`${file} ${name}`, schema, value);
      const shape = (schema as { shape?: Record<string, unknown> }).shape;
      if (!shape || typeof shape !== 'object') continue;
      for (const field of Object.keys(shape)) {
        for (const value of bad) collect(`${file} ${name}.${field}`, schema, { [field]: value });
      }
    }
  }
  return found;
}

describe("zod's own messages, for a check written without one", () => {
  const localeError = z.locales.en().localeError;
  const say = (issue: Record<string, unknown>) => {
    const said = localeError(issue as never);
    return typeof said === 'string' ? said : (said?.message ?? '');
  };
  const issues: Record<string, unknown>[] = [
    { code: 'invalid_type', expected: 'string', input: undefined },
    { code: 'invalid_type', expected: 'number', input: 'x' },
    { code: 'invalid_type', expected: 'object', input: [] },
    { code: 'invalid_value', values: ['a'] },
    { code: 'invalid_value', values: ['a', 'b'] },
    { code: 'too_small', origin: 'string', minimum: 1, inclusive: true },
    { code: 'too_small', origin: 'string', minimum: 6, exact: true },
    { code: 'too_big', origin: 'string', maximum: 64, inclusive: true },
    { code: 'too_small', origin: 'array', minimum: 1, inclusive: true },
    { code: 'too_big', origin: 'array', maximum: 10, inclusive: true },
    { code: 'too_small', origin: 'number', minimum: 0, inclusive: false },
    { code: 'too_big', origin: 'number', maximum: 100, inclusive: true },
    { code: 'too_big', origin: 'date', maximum: 5, inclusive: true },
    { code: 'invalid_format', format: 'uuid' },
    { code: 'invalid_format', format: 'email' },
    { code: 'invalid_format', format: 'url' },
    { code: 'invalid_format', format: 'datetime' },
    { code: 'invalid_format', format: 'date' },
    { code: 'invalid_format', format: 'base64url' },
    { code: 'invalid_format', format: 'regex', pattern: /^[a-z]+$/ },
    { code: 'invalid_format', format: 'starts_with', prefix: 'https://' },
    { code: 'not_multiple_of', divisor: 5 },
    { code: 'unrecognized_keys', keys: ['extra'] },
    { code: 'unrecognized_keys', keys: ['a', 'b'] },
    { code: 'invalid_key', origin: 'record' },
    { code: 'invalid_union' },
    { code: 'invalid_element', origin: 'map' },
    { code: 'custom' },
  ];

  it('are each worded by their shape, and read in English as zod words them', async () => {
    for (const issue of issues) {
      const message = say(issue);
      expect(isTranslatedZodDefault(message), message).toBe(true);
      expect(translateValidationMessage(message)).toBeTypeOf('string');
    }
    await activateLocale('de');
    for (const issue of issues) {
      const message = say(issue);
      expect(translateValidationMessage(message), message).not.toBe(message);
    }
  });

  it('word a field without a message of its own (a token) in the language', async () => {
    const tokenBody = z.object({ token: z.string().min(1) });
    const missing = firstMessage(tokenBody.safeParse({}));
    const empty = firstMessage(tokenBody.safeParse({ token: '' }));
    expect(missing).toBe('Invalid input: expected string, received undefined');
    expect(empty).toBe('Too small: expected string to have >=1 characters');
    await activateLocale('es');
    expect(translateValidationMessage(missing)).toBe('Este campo es obligatorio');
    expect(translateValidationMessage(empty)).toBe('Este campo es obligatorio');
    await activateLocale('ru');
    expect(translateValidationMessage('Too big: expected string to have <=64 characters')).toBe('Не более 64 символов');
    await activateLocale('de');
    expect(translateValidationMessage('Invalid input: expected number, received string')).toBe('Ungültiger Wert: erwartet wird eine Zahl');
  });

  it('leave no field of any schema in src/shared/schemas without words in the language', () => {
    const found = messagesForBadInput(schemaModules);
    expect(found.size).toBeGreaterThan(50);
    const untranslated = [...found].filter(([message]) => !translated(message)).map(([message, where]) => `${where}: ${message}`);
    expect(untranslated).toEqual([]);
  });

  it("word the server's field messages with amounts, the amounts as the language writes them", async () => {
    await activateLocale('de');
    expect(translateValidationMessage('Enter an amount from 5.00 to 10000.00 USD')).toBe('Gib einen Betrag von 5,00 bis 10.000,00 USD ein');
    expect(translateValidationMessage('The amount must be between 0.00015385 BTC and 2 BTC for this pair')).toBe(
      'Der Betrag muss für dieses Paar zwischen 0,00015385 BTC und 2 BTC liegen',
    );
    expect(translateValidationMessage('That username is taken')).not.toBe('That username is taken');
  });
});
