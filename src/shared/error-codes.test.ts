import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClientErrorCode, ErrorCode } from './error-codes';

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
});
