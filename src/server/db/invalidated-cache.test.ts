import { describe, expect, it } from 'vitest';
import { CHANGE_HOLD_MS, InvalidatedCache } from './invalidated-cache.js';

function setup(live: boolean) {
  let now = 1_000_000;
  const state = { live };
  const cache = new InvalidatedCache<string>({
    live: () => state.live,
    longTtlMs: 600_000,
    shortTtlMs: 750,
    maxEntries: 100,
    now: () => now,
  });
  let loads = 0;
  let value = 'v1';
  const load = async () => {
    loads++;
    return value;
  };
  return {
    cache,
    state,
    load,
    loads: () => loads,
    set: (v: string) => (value = v),
    advance: (ms: number) => (now += ms),
  };
}

describe('InvalidatedCache', () => {
  it('keeps entries long while changes are heard, and only the short bound otherwise', async () => {
    const live = setup(true);
    await live.cache.get('k', live.load);
    live.advance(60_000);
    expect(await live.cache.get('k', live.load)).toBe('v1');
    expect(live.loads()).toBe(1);

    const deaf = setup(false);
    await deaf.cache.get('k', deaf.load);
    deaf.advance(800);
    await deaf.cache.get('k', deaf.load);
    expect(deaf.loads()).toBe(2);
  });

  it('keeps nothing when the short bound is 0 and nobody listens', async () => {
    const cache = new InvalidatedCache<string>({ live: () => false, longTtlMs: 600_000, shortTtlMs: 0, maxEntries: 100 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get('k', load)).toBe('v1');
    expect(await cache.get('k', load)).toBe('v2');
  });

  it('drops an entry on forget, and keeps no read of it for the hold', async () => {
    const t = setup(true);
    await t.cache.get('k', t.load);
    t.cache.forget('k');
    t.set('v2');
    expect(await t.cache.get('k', t.load)).toBe('v2');
    t.set('v3');
    expect(await t.cache.get('k', t.load)).toBe('v3');
    t.advance(CHANGE_HOLD_MS + 1);
    await t.cache.get('k', t.load);
    t.set('v4');
    expect(await t.cache.get('k', t.load)).toBe('v3');
  });

  it('neither keeps nor shares a read that was in flight when a change or a start-over came', async () => {
    for (const change of ['forget', 'forgetAll'] as const) {
      const t = setup(true);
      let release!: (v: string) => void;
      const slow = t.cache.get('k', () => new Promise<string>((r) => (release = r)));
      if (change === 'forget') t.cache.forget('k');
      else t.cache.forgetAll();
      // A new caller does not join the old read.
      const fresh = t.cache.get('k', async () => 'new');
      release('old');
      expect(await slow).toBe('old');
      expect(await fresh).toBe('new');
      // The old read was not kept: the next caller loads again.
      expect(await t.cache.get('k', async () => 'newer')).toBe(change === 'forget' ? 'newer' : 'new');
    }
  });

  it('shares one load between callers that miss together', async () => {
    const t = setup(true);
    const [a, b, c] = await Promise.all([t.cache.get('k', t.load), t.cache.get('k', t.load), t.cache.get('k', t.load)]);
    expect([a, b, c]).toEqual(['v1', 'v1', 'v1']);
    expect(t.loads()).toBe(1);
  });
});
