import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '#shared/error-codes';
import { activateLocale } from '#web/features/language';
import { ApiError, errorMessage } from './api-client';
import { ERROR_MESSAGES } from './error-messages';
import { KNOWN_SERVER_MESSAGES, translateServerMessage } from './server-messages';

/** The server's source (its tests left out): a new module is read without a change here. */
const serverSources = import.meta.glob<string>(['../../server/**/*.ts', '!../../server/**/*.test.ts', '!../../server/test/**'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

/**
 * Fixed messages no person reads in the web, so they need no translation. Keep this short, each with
 * its reason; anything else a null-mapped code carries must be in ./server-messages.ts.
 */
const EXCLUDED = new Set([
  // src/server/modules/payments/ipn-single.ts: the answer to the payment provider's IPN call.
  'Unknown payment',
  // src/server/modules/api-keys/api-key-auth.ts: the charge API's answers to a program without a valid key.
  'An API key is required',
  'An API key is required: Authorization: Bearer olk_live_…',
  'This endpoint takes an API key, not a session token',
  'Unknown or revoked API key',
  // src/server/sandbox/mail/mail.sandbox.ts: the development mail sandbox, never in production.
  'No such message',
]);

/** The codes whose words the web leaves to the server's message (`null` in ERROR_MESSAGES). */
const SERVER_WORDED = new Set(Object.entries(ERROR_MESSAGES).flatMap(([code, words]) => (words === null ? [code] : [])));

const QUOTED = String.raw`'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"`;
const HELPER_CODES: Record<string, string> = {
  badRequest: 'BAD_REQUEST',
  conflict: 'CONFLICT',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  serviceUnavailable: 'UNAVAILABLE',
};
/** Each way src/server/errors.ts makes an error from a literal message, with the code it gets. */
const THROWS: ReadonlyArray<readonly [RegExp, (m: RegExpMatchArray) => { code: string; text: string | undefined }]> = [
  [
    new RegExp(String.raw`\b(badRequest|conflict|forbidden|notFound|serviceUnavailable)\(\s*(?:${QUOTED})`, 'g'),
    (m) => ({ code: HELPER_CODES[m[1]!]!, text: m[2] ?? m[3] }),
  ],
  [
    new RegExp(String.raw`\bunprocessable\(\s*(?:${QUOTED})(?:\s*,\s*'(\w+)')?`, 'g'),
    (m) => ({ code: m[3] ?? 'RULE_BROKEN', text: m[1] ?? m[2] }),
  ],
  [
    new RegExp(String.raw`\bunauthorized\(\s*(?:${QUOTED})(?:\s*,\s*'(\w+)')?`, 'g'),
    (m) => ({ code: m[3] ?? 'UNAUTHORIZED', text: m[1] ?? m[2] }),
  ],
  [new RegExp(String.raw`\bnew AppError\(\s*'(\w+)',\s*(?:${QUOTED})`, 'g'), (m) => ({ code: m[1]!, text: m[2] ?? m[3] })],
  // src/server/errors.ts's own defaults: `(message = 'Not found') => new AppError('NOT_FOUND', message)`.
  [new RegExp(String.raw`\(message = (?:${QUOTED})\) => new AppError\('(\w+)'`, 'g'), (m) => ({ code: m[3]!, text: m[1] ?? m[2] })],
];

/** The fixed messages the server throws with a code whose words are its own, with where they are. */
function serverFixedMessages(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [file, source] of Object.entries(serverSources)) {
    for (const [pattern, read] of THROWS) {
      for (const match of source.matchAll(pattern)) {
        const { code, text } = read(match);
        if (text === undefined || !SERVER_WORDED.has(code)) continue;
        found.set(text.replace(/\\(.)/g, '$1'), `${code} in ${file}`);
      }
    }
  }
  return found;
}

afterEach(async () => {
  await activateLocale('en');
});

describe("the server's fixed error messages in the page's language", () => {
  it('has every fixed message the server throws with a code the web does not word itself', () => {
    const found = serverFixedMessages();
    // The scan reads what it should: a known message of each kind of throw.
    expect(found.get('The authenticator app is already on.')).toMatch(/^CONFLICT /);
    expect(found.get('This account has no passkey. Use a code instead.')).toMatch(/^BAD_REQUEST /);
    expect(found.get('Another article already has this address')).toMatch(/^CONFLICT /);
    expect(found.get('Not found')).toMatch(/^NOT_FOUND /);
    expect(found.size).toBeGreaterThan(100);
    const missing = [...found].filter(([text]) => !EXCLUDED.has(text) && !KNOWN_SERVER_MESSAGES.includes(text));
    expect(missing.map(([text, where]) => `${text} (${where})`)).toEqual([]);
  });

  it('keeps no exclusion the server no longer throws, and no message in both lists', () => {
    const found = serverFixedMessages();
    expect([...EXCLUDED].filter((text) => !found.has(text))).toEqual([]);
    expect(KNOWN_SERVER_MESSAGES.filter((text) => EXCLUDED.has(text))).toEqual([]);
  });

  it('leaves English exactly as the server words it', () => {
    for (const message of KNOWN_SERVER_MESSAGES) expect(translateServerMessage(message)).toBe(message);
    expect(translateServerMessage('Something the server never says')).toBeNull();
  });

  it('words a fixed message in Spanish and German through errorMessage', async () => {
    const on = new ApiError(409, 'The authenticator app is already on.', ErrorCode.CONFLICT);
    const article = new ApiError(409, 'Another article already has this address', ErrorCode.CONFLICT);
    const typed = new ApiError(400, 'The username typed does not match this account', ErrorCode.VALIDATION_ERROR);
    const other = new ApiError(409, 'A message the table does not know', ErrorCode.CONFLICT);
    expect(errorMessage(on, 'Failed')).toBe('The authenticator app is already on.');

    await activateLocale('es');
    expect(errorMessage(on, 'Failed')).toBe('La app de autenticación ya está activada.');
    expect(errorMessage(article, 'Failed')).toBe('Otro artículo ya tiene esta dirección');
    expect(errorMessage(typed, 'Failed')).toBe('El nombre de usuario escrito no coincide con esta cuenta');
    expect(errorMessage(other, 'Failed')).toBe('A message the table does not know');

    await activateLocale('de');
    expect(errorMessage(on, 'Failed')).toBe('Die Authenticator-App ist bereits aktiv.');
    expect(errorMessage(article, 'Failed')).toBe('Ein anderer Artikel hat bereits diese Adresse');
    expect(errorMessage(other, 'Failed')).toBe('A message the table does not know');
  });

  it('keeps the code’s own words and the details’ words first', async () => {
    await activateLocale('de');
    const holiday = new ApiError(409, '2026-12-24 is already a holiday', ErrorCode.CONFLICT, { day: '2026-12-24' });
    expect(errorMessage(holiday, 'Failed')).not.toMatch(/already a holiday/);
  });
});
