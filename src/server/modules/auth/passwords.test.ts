import argon2 from 'argon2';
import { describe, expect, it } from 'vitest';
import { hashPassword, isCommonPassword, needsRehash, verifyAgainstDummy, verifyPassword } from './passwords.js';

describe('password hashing', () => {
  it('uses argon2id with at least m=19 MiB, t=2, p=1, stored as a PHC string', async () => {
    const hash = await hashPassword('a long passphrase 42');
    const match = /^\$argon2id\$v=19\$([a-z]=\d+(?:,[a-z]=\d+)*)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(hash);
    expect(match, hash).not.toBeNull();
    const params = Object.fromEntries(match![1]!.split(',').map((kv) => [kv[0], Number(kv.slice(2))]));
    expect(params.m).toBeGreaterThanOrEqual(19_456);
    expect(params.t).toBeGreaterThanOrEqual(2);
    expect(params.p).toBeGreaterThanOrEqual(1);
    expect(await verifyPassword(hash, 'a long passphrase 42')).toBe(true);
    expect(await verifyPassword(hash, 'a long passphrase 43')).toBe(false);
  });

  it('asks for a rehash of weaker hashes, and treats an unreadable hash as a mismatch', async () => {
    const weak = await argon2.hash('a long passphrase 42', { type: argon2.argon2id, memoryCost: 4096, timeCost: 1, parallelism: 1 });
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword('a long passphrase 42'))).toBe(false);
    expect(await verifyPassword('not a hash', 'a long passphrase 42')).toBe(false);
  });

  it('burns a real verification for unknown users', async () => {
    await verifyAgainstDummy('warm up');
    const started = performance.now();
    await verifyAgainstDummy('a long passphrase 42');
    const dummy = performance.now() - started;
    const hash = await hashPassword('something else entirely');
    const realStarted = performance.now();
    await verifyPassword(hash, 'a long passphrase 42');
    const real = performance.now() - realStarted;
    // Same parameters, same work: generous bounds for a busy machine.
    expect(dummy).toBeGreaterThan(real / 4);
    expect(await verifyAgainstDummy('olympus-dummy-password-for-timing')).toBe(false);
  });
});

describe('common passwords', () => {
  it('refuses the most common passwords of 8 characters or more, whatever their case', () => {
    for (const common of ['password', '12345678', 'baseball', 'qwertyuiop', 'iloveyou', 'Password1', 'PASSWORD123', 'sunshine']) {
      expect(isCommonPassword(common), common).toBe(true);
    }
  });

  it('accepts passphrases that are not on the list', () => {
    expect(isCommonPassword('a long passphrase 42')).toBe(false);
    expect(isCommonPassword('correct horse battery staple')).toBe(false);
  });
});
