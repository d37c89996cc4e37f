import { describe, expect, it } from 'vitest';
import { UserReadCache } from './user-read-cache.js';
import type { UserRow } from './users.tables.js';

const row = (creditsCents: number) => ({ id: 'u1', creditsCents }) as UserRow;

/** A loader whose answer the test releases by hand, to interleave reads with changes. */
function gatedLoader() {
  const pending: ((r: UserRow) => void)[] = [];
  let calls = 0;
  return {
    load: () => {
      calls++;
      return new Promise<UserRow | null>((resolve) => pending.push(resolve));
    },
    release: (r: UserRow) => pending.shift()!(r),
    get calls() {
      return calls;
    },
  };
}

describe('UserReadCache', () => {
  it('answers from memory within its lifetime, and asks again after it', async () => {
    let clock = 1_000;
    const cache = new UserReadCache(750, 30_000, () => clock);
    let loads = 0;
    const load = async () => (loads++, row(100));
    await cache.get('u1', load);
    clock += 749;
    await cache.get('u1', load);
    expect(loads).toBe(1);
    clock += 2;
    await cache.get('u1', load);
    expect(loads).toBe(2);
  });

  it('drops the row when a change begins, and keeps nothing read while the change may be uncommitted', async () => {
    let clock = 1_000;
    const cache = new UserReadCache(750, 30_000, () => clock);
    let stored = 100;
    let loads = 0;
    const load = async () => (loads++, row(stored));
    expect((await cache.get('u1', load))?.creditsCents).toBe(100);
    cache.noteUserChanging('u1');
    // Before the commit the database still answers the old row: it is served but not kept...
    expect((await cache.get('u1', load))?.creditsCents).toBe(100);
    stored = 250;
    // ...so the next read, after the commit, sees the new one.
    expect((await cache.get('u1', load))?.creditsCents).toBe(250);
    expect(loads).toBe(3);
    // Once the hold is over, reads are kept again.
    clock += 30_001;
    await cache.get('u1', load);
    await cache.get('u1', load);
    expect(loads).toBe(4);
  });

  it('does not keep a read that was already in flight when a change began', async () => {
    let clock = 1_000;
    const cache = new UserReadCache(750, 30_000, () => clock);
    const gate = gatedLoader();
    const inFlight = cache.get('u1', gate.load);
    cache.noteUserChanging('u1');
    clock += 30_001; // even with the hold over, the read started before the change
    gate.release(row(100));
    expect((await inFlight)?.creditsCents).toBe(100);
    const next = cache.get('u1', gate.load);
    expect(gate.calls).toBe(2);
    gate.release(row(250));
    expect((await next)?.creditsCents).toBe(250);
  });

  it('never remembers an unknown user', async () => {
    const cache = new UserReadCache();
    let loads = 0;
    const load = async () => (loads++, null);
    await cache.get('nobody', load);
    await cache.get('nobody', load);
    expect(loads).toBe(2);
  });

  it('changes to one user leave the others cached', async () => {
    const cache = new UserReadCache();
    let loads = 0;
    const load = async (id: string) => (loads++, { ...row(1), id });
    await cache.get('u1', load);
    await cache.get('u2', load);
    cache.noteUserChanging('u1');
    await cache.get('u2', load);
    expect(loads).toBe(2);
  });

  it('shares one load among callers that miss at the same time', async () => {
    const cache = new UserReadCache();
    const gate = gatedLoader();
    const callers = Array.from({ length: 50 }, () => cache.get('u1', gate.load));
    expect(gate.calls).toBe(1);
    gate.release(row(100));
    expect((await Promise.all(callers)).every((r) => r?.creditsCents === 100)).toBe(true);
  });

  it('does not let a caller after a change join a load that started before it', async () => {
    const cache = new UserReadCache();
    const gate = gatedLoader();
    const before = cache.get('u1', gate.load);
    cache.noteUserChanging('u1');
    const after = cache.get('u1', gate.load);
    expect(gate.calls).toBe(2);
    gate.release(row(100));
    gate.release(row(250));
    expect((await before)?.creditsCents).toBe(100);
    expect((await after)?.creditsCents).toBe(250);
  });

  it('passes a failed load to every caller sharing it, and tries again on the next call', async () => {
    const cache = new UserReadCache();
    let fail = true;
    let loads = 0;
    const load = async () => {
      loads++;
      await Promise.resolve();
      if (fail) throw new Error('database gone');
      return row(5);
    };
    const results = await Promise.allSettled([cache.get('u1', load), cache.get('u1', load)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(loads).toBe(1);
    fail = false;
    expect((await cache.get('u1', load))?.creditsCents).toBe(5);
  });
});
