import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientErrorCode, ERROR_STATUS, ErrorCode } from './error-codes';

const SERVER = join(import.meta.dirname, '..', 'server');

function serverSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'sandbox' || entry.name === 'migrations' ? [] : serverSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('the error code list', () => {
  it('names each code once, as its own value', () => {
    for (const [key, value] of Object.entries(ErrorCode)) expect(value).toBe(key);
    for (const [key, value] of Object.entries(ClientErrorCode)) expect(value).toBe(key);
    const server = new Set(Object.values(ErrorCode));
    expect(Object.values(ClientErrorCode).filter((code) => server.has(code as ErrorCode))).toEqual([]);
  });

  it('holds every code the server sends without going through AppError (the error handler, the 404 answer)', () => {
    // AppError's type checks the codes it is given; answers sent by hand (`code: 'X'` after `error:`, on its line or the next) are checked here.
    const sent = new Set<string>();
    for (const file of serverSources(SERVER)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/error:[\s\S]{0,300}?code: '([A-Z][A-Z0-9_]*)'/g)) sent.add(match[1]!);
    }
    expect(sent.size).toBeGreaterThan(3);
    expect([...sent].filter((code) => !(code in ErrorCode))).toEqual([]);
  });

  it('gives every code one status, an error status', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.keys(ErrorCode).sort());
    for (const status of Object.values(ERROR_STATUS)) expect(status >= 400 && status < 600).toBe(true);
  });

  it('leaves no answer sent by hand to pick its own status for a code', () => {
    // AppError takes no status at all; a hand-written answer reads its status from ERROR_STATUS, so a
    // number in `.status(…)` before a `code: 'X'` would pair the code with a status the list does not give it.
    const literal: string[] = [];
    for (const file of serverSources(SERVER)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\.status\((\d{3})\)[\s\S]{0,200}?code: '([A-Z][A-Z0-9_]*)'/g)) {
        literal.push(`${file.slice(SERVER.length)}: ${match[1]} ${match[2]}`);
      }
    }
    expect(literal).toEqual([]);
  });

  it('is documented with the same status in the error table of docs/product.md', () => {
    const documented = new Map<string, string>();
    const product = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'product.md'), 'utf8');
    for (const [, codes, status] of product.matchAll(/^\| (`[A-Z][A-Z0-9_]*`(?:, `[A-Z][A-Z0-9_]*`)*) \| ([^|]+) \|/gm)) {
      for (const [, code] of codes!.matchAll(/`([A-Z0-9_]+)`/g)) documented.set(code!, status!.trim());
    }
    // CLIENT_ERROR carries the HTTP framework's own status (src/server/plugins/errors.ts); its table row says so.
    const expected = Object.fromEntries(
      Object.entries(ERROR_STATUS).map(([code, status]) => [code, code === 'CLIENT_ERROR' ? '4xx' : String(status)]),
    );
    expect(Object.fromEntries(Object.keys(ERROR_STATUS).map((code) => [code, documented.get(code)]))).toEqual(expected);
  });
});
