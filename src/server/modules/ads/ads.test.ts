import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { AD_LIMITS } from './ads.routes.js';

const TEXT_AD = {
  placement: 'home-banner',
  kind: 'text',
  title: 'Hardware wallets, 20% off',
  body: 'Keep your keys offline.',
  targetUrl: 'https://wallets.example.com/offer?ref=olympus',
};

/** A 1×1 PNG: what the tests' image fetcher answers for any address. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe.each(enginesFor('database'))('ads on %s', (engine) => {
  let t: TestApp;
  let staff: { token: string; userId: string };

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', TRUST_PROXY: '1' }, { adImageFetcher: async () => PNG });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
  });
  afterAll(async () => {
    await t?.close();
  });

  async function createAd(overrides: Record<string, unknown> = {}): Promise<string> {
    const res = await call(t, 'POST', '/api/staff/ads', { token: staff.token, body: { ...TEXT_AD, ...overrides } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.ad._id as string;
  }

  async function counted(adId: string): Promise<number> {
    const res = await t.database.pool.query('SELECT count(*)::int AS n FROM ad_impressions WHERE ad_id = $1', [adId]);
    return res.rows[0].n as number;
  }

  const impression = (adId: string, options: { token?: string; headers?: Record<string, string> } = {}) =>
    call(t, 'POST', `/api/ads/${adId}/impression`, options);

  it('lets staff create an ad that visitors then get for its placement, with a tracked link and an honest host', async () => {
    const id = await createAd({ placement: 'patch-notes', weight: 3 });
    const res = await call(t, 'GET', '/api/ads?placement=patch-notes');
    expect(res.status).toBe(200);
    expect(res.json.ad).toEqual({
      _id: id,
      placement: 'patch-notes',
      kind: 'text',
      title: TEXT_AD.title,
      body: TEXT_AD.body,
      imageUrl: null,
      imageAlt: '',
      displayHost: 'wallets.example.com',
      clickUrl: `/api/ads/${id}/click`,
    });
    // The target URL itself is for staff only.
    expect(JSON.stringify(res.json)).not.toContain('ref=olympus');
  });

  it('refuses ad editing to users and guests (403) and to visitors without a session (401), changing nothing', async () => {
    const id = await createAd();
    const user = await registerUser(t);
    const guest = await startGuest(t);
    const before = await t.database.pool.query('SELECT count(*)::int AS n FROM ads');

    const asUser = await call(t, 'POST', '/api/staff/ads', { token: user.token, body: TEXT_AD });
    expect(asUser.status).toBe(403);
    expect((await call(t, 'PUT', `/api/staff/ads/${id}`, { token: user.token, body: { title: 'Hijacked' } })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/ads', { token: user.token })).status).toBe(403);
    expect((await call(t, 'GET', '/api/staff/ads/stats', { token: user.token })).status).toBe(403);
    expect((await call(t, 'POST', '/api/staff/ads', { token: guest.token, headers: guestHeaders(guest), body: TEXT_AD })).status).toBe(403);
    expect((await call(t, 'POST', '/api/staff/ads', { body: TEXT_AD })).status).toBe(401);

    const after = await t.database.pool.query('SELECT count(*)::int AS n FROM ads');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const ad = await t.database.pool.query('SELECT title FROM ads WHERE id = $1', [id]);
    expect(ad.rows[0].title).toBe(TEXT_AD.title);
  });

  it('lets an admin edit an ad, checking the merged ad against the same rules', async () => {
    const admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
    const id = await createAd();
    const edited = await call(t, 'PUT', `/api/staff/ads/${id}`, {
      token: admin.token,
      body: { title: 'Cold storage, 20% off', weight: 5 },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.ad).toMatchObject({ title: 'Cold storage, 20% off', weight: 5, body: TEXT_AD.body, live: true });

    const noImage = await call(t, 'PUT', `/api/staff/ads/${id}`, { token: admin.token, body: { kind: 'image' } });
    expect(noImage.status).toBe(400);
    expect(noImage.json.details.fields.imageUrl).toBe('An image ad needs an image address');

    const backwards = await call(t, 'PUT', `/api/staff/ads/${id}`, {
      token: admin.token,
      body: { startsAt: hoursFromNow(2), endsAt: hoursFromNow(1) },
    });
    expect(backwards.status).toBe(400);
  });

  it('accepts only http and https targets, and https images', async () => {
    // A line break would be dropped by the URL parser but kept in the stored value (and the Location header).
    for (const targetUrl of [
      'javascript:alert(1)',
      'data:text/html,hi',
      '//evil.example',
      '/relative',
      'ftp://files.example.com',
      'https://ok.example/a\r\nSet-Cookie: x=1',
      'https://ok.example/a\tb',
    ]) {
      const res = await call(t, 'POST', '/api/staff/ads', { token: staff.token, body: { ...TEXT_AD, targetUrl } });
      expect(res.status, targetUrl).toBe(400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
    }
    const httpImage = await call(t, 'POST', '/api/staff/ads', {
      token: staff.token,
      body: { ...TEXT_AD, kind: 'image', imageUrl: 'http://img.example.com/a.png', imageAlt: 'A wallet' },
    });
    expect(httpImage.status).toBe(400);
    const ok = await call(t, 'POST', '/api/staff/ads', {
      token: staff.token,
      body: {
        ...TEXT_AD,
        targetUrl: 'http://plain.example.com/',
        kind: 'image',
        imageUrl: 'https://img.example.com/a.png',
        imageAlt: 'A wallet',
      },
    });
    expect(ok.status).toBe(201);
  });

  it('counts an impression once per viewer per ad per 30 minutes: users, guests and anonymous devices alike', async () => {
    const id = await createAd();
    const otherAd = await createAd();
    const guest = await startGuest(t);
    const asGuest = { token: guest.token, headers: guestHeaders(guest) };

    expect((await impression(id, asGuest)).json).toEqual({ recorded: true });
    expect((await impression(id, asGuest)).json).toEqual({ recorded: false });
    // Another ad is another count.
    expect((await impression(otherAd, asGuest)).json).toEqual({ recorded: true });

    const user = await registerUser(t);
    expect((await impression(id, { token: user.token })).json).toEqual({ recorded: true });
    expect((await impression(id, { token: user.token })).json).toEqual({ recorded: false });

    // Without a session the network address is the viewer (docs/decisions/0302): another browser on
    // the same address is the same viewer; another address is another.
    const browserA = { headers: { 'user-agent': 'Mozilla/5.0 (test A)', 'x-forwarded-for': '203.0.113.10' } };
    const browserB = { headers: { 'user-agent': 'Mozilla/5.0 (test B)', 'x-forwarded-for': '203.0.113.10' } };
    const elsewhere = { headers: { 'user-agent': 'Mozilla/5.0 (test A)', 'x-forwarded-for': '203.0.113.11' } };
    expect((await impression(id, browserA)).json).toEqual({ recorded: true });
    expect((await impression(id, browserA)).json).toEqual({ recorded: false });
    expect((await impression(id, browserB)).json).toEqual({ recorded: false });
    expect((await impression(id, elsewhere)).json).toEqual({ recorded: true });
    expect(await counted(id)).toBe(4);

    // No raw address is stored: anonymous viewers are keyed hashes.
    const keys = await t.database.pool.query("SELECT viewer_key FROM ad_impressions WHERE ad_id = $1 AND viewer_key LIKE 'h:%'", [id]);
    expect(keys.rows).toHaveLength(2);
    for (const row of keys.rows) expect(row.viewer_key).not.toContain('203.0.113');

    // 29 minutes later it still does not count; after 30 it counts again.
    const gate = `UPDATE ad_viewer_impressions SET last_counted_at = now() - make_interval(mins => $2) WHERE ad_id = $1 AND viewer_key = $3`;
    await t.database.pool.query(gate, [id, 29, `g:${guest.guestId}`]);
    expect((await impression(id, asGuest)).json).toEqual({ recorded: false });
    await t.database.pool.query(gate, [id, 30, `g:${guest.guestId}`]);
    expect((await impression(id, asGuest)).json).toEqual({ recorded: true });
    expect(await counted(id)).toBe(5);
  });

  it('counts concurrent duplicates from one viewer exactly once', async () => {
    const id = await createAd();
    const guest = await startGuest(t);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => impression(id, { token: guest.token, headers: guestHeaders(guest) })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(answers.filter((a) => a.json.recorded === true)).toHaveLength(1);
    expect(await counted(id)).toBe(1);
  });

  it('writes impressions arriving together in batches, answering each one on its own: new, duplicate, paused, unknown', async () => {
    const [a, b, paused] = [await createAd(), await createAd(), await createAd({ active: false })];
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    // 60 anonymous devices on two ads, each sent twice at once, plus a paused and an unknown ad in the same burst.
    const sends = Array.from({ length: 60 }, (_, i) => ({ id: i % 2 ? a : b, ip: `198.18.0.${i + 1}` }));
    const device = (ip: string) => ({ headers: { 'user-agent': 'batch-device', 'x-forwarded-for': ip } });
    const answers = await Promise.all([
      ...[...sends, ...sends].map((s) => impression(s.id, device(s.ip))),
      impression(paused, device('198.18.0.1')),
      impression(unknown, device('198.18.0.1')),
    ]);
    const forSends = answers.slice(0, 120);
    expect(forSends.map((r) => r.status)).toEqual(Array(120).fill(200));
    // Each device counted exactly once per ad, whichever of its two copies came first.
    for (let i = 0; i < 60; i++) expect([forSends[i]!.json.recorded, forSends[i + 60]!.json.recorded].sort()).toEqual([false, true]);
    expect(answers[120]!.json).toEqual({ recorded: false });
    expect(answers[121]!.status).toBe(404);
    expect((await counted(a)) + (await counted(b))).toBe(60);
    expect(await counted(paused)).toBe(0);
    // Answered means committed: a recorded impression is in the table when its answer arrives.
    const more = await impression(a, device('198.18.1.1'));
    expect(more.json).toEqual({ recorded: true });
    expect(await counted(a)).toBe(31);
  });

  it('counts nothing for ads that are not live, and never serves them', async () => {
    const paused = await createAd({ placement: 'patch-notes', active: false });
    const future = await createAd({ placement: 'patch-notes', startsAt: hoursFromNow(1) });
    const ended = await createAd({ placement: 'patch-notes', startsAt: hoursFromNow(-3), endsAt: hoursFromNow(-1) });
    const guest = await startGuest(t);
    for (const id of [paused, future, ended]) {
      const res = await impression(id, { token: guest.token, headers: guestHeaders(guest) });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ recorded: false });
      expect(await counted(id)).toBe(0);
    }
    for (let i = 0; i < 20; i += 1) {
      const served = await call(t, 'GET', '/api/ads?placement=patch-notes');
      expect([paused, future, ended]).not.toContain(served.json.ad?._id);
    }

    // Pausing a live ad stops the counting at once.
    const live = await createAd();
    await call(t, 'PUT', `/api/staff/ads/${live}`, { token: staff.token, body: { active: false } });
    expect((await impression(live, { token: guest.token, headers: guestHeaders(guest) })).json).toEqual({ recorded: false });

    expect((await impression('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await impression('not-an-id')).status).toBe(400);
  });

  it('answers null for a placement with no live ad', async () => {
    await t.database.pool.query("UPDATE ads SET active = false WHERE placement = 'home-banner'");
    const res = await call(t, 'GET', '/api/ads?placement=home-banner');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ ad: null });
    expect((await call(t, 'GET', '/api/ads?placement=nowhere')).status).toBe(400);
  });

  it('draws ads in proportion to their weight', async () => {
    await t.database.pool.query("UPDATE ads SET active = false WHERE placement = 'home-banner'");
    const light = await createAd({ weight: 1 });
    const heavy = await createAd({ weight: 9 });
    const seen = { [light]: 0, [heavy]: 0 };
    for (let i = 0; i < 200; i += 1) {
      const res = await call(t, 'GET', '/api/ads?placement=home-banner');
      seen[res.json.ad._id as string]! += 1;
    }
    // Expected 180 vs 20; the bounds are many standard deviations wide.
    expect(seen[heavy]).toBeGreaterThan(150);
    expect(seen[light]).toBeGreaterThan(3);
  });

  it("redirects a click to the ad's stored URL only, and counts it", async () => {
    const id = await createAd();
    const res = await fetch(`${t.url}/api/ads/${id}/click?url=https://evil.example/&redirect=https://evil.example/`, {
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(TEXT_AD.targetUrl);
    const clicks = await t.database.pool.query('SELECT count(*)::int AS n FROM ad_clicks WHERE ad_id = $1', [id]);
    expect(clicks.rows[0].n).toBe(1);

    const unknown = await fetch(`${t.url}/api/ads/00000000-0000-4000-8000-000000000000/click`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('location')).toBeNull();
    const garbage = await fetch(`${t.url}/api/ads/https%3A%2F%2Fevil.example/click`, { redirect: 'manual' });
    expect(garbage.headers.get('location')).toBeNull();

    // A paused ad still takes the visitor where it promised, but the click does not count.
    await call(t, 'PUT', `/api/staff/ads/${id}`, { token: staff.token, body: { active: false } });
    const paused = await fetch(`${t.url}/api/ads/${id}/click`, { redirect: 'manual' });
    expect(paused.headers.get('location')).toBe(TEXT_AD.targetUrl);
    const after = await t.database.pool.query('SELECT count(*)::int AS n FROM ad_clicks WHERE ad_id = $1', [id]);
    expect(after.rows[0].n).toBe(1);
  });

  it('gives staff impressions, unique viewers, clicks and click-through per ad and day', async () => {
    const id = await createAd();
    const guests = [await startGuest(t), await startGuest(t), await startGuest(t), await startGuest(t)];
    for (const g of guests) await impression(id, { token: g.token, headers: guestHeaders(g) });
    // The first guest is counted again after the window: 5 impressions from 4 viewers.
    await t.database.pool.query(
      "UPDATE ad_viewer_impressions SET last_counted_at = now() - interval '31 minutes' WHERE ad_id = $1 AND viewer_key = $2",
      [id, `g:${guests[0]!.guestId}`],
    );
    await impression(id, { token: guests[0]!.token, headers: guestHeaders(guests[0]!) });
    await fetch(`${t.url}/api/ads/${id}/click`, { redirect: 'manual' });

    const res = await call(t, 'GET', `/api/staff/ads/stats?adId=${id}&days=7`, { token: staff.token });
    expect(res.status).toBe(200);
    expect(res.json.stats).toEqual([
      { adId: id, day: new Date().toISOString().slice(0, 10), impressions: 5, uniqueViewers: 4, clicks: 1, clickThroughRate: 0.2 },
    ]);
  });
});

describe.each(enginesFor('database'))('ad impression rate limits on %s', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 with Retry-After once a viewer sends too many impressions', async () => {
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'admin');
    const created = await call(t, 'POST', '/api/staff/ads', { token: staff.token, body: TEXT_AD });
    const id = created.json.ad._id as string;
    const guest = await startGuest(t);
    const send = () => call(t, 'POST', `/api/ads/${id}/impression`, { token: guest.token, headers: guestHeaders(guest) });
    for (let i = 0; i < AD_LIMITS.impressionsPerViewer.limit; i += 1) expect((await send()).status).toBe(200);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another viewer is not affected.
    const other = await startGuest(t);
    expect((await call(t, 'POST', `/api/ads/${id}/impression`, { token: other.token, headers: guestHeaders(other) })).json).toEqual({
      recorded: true,
    });
  });

  it('still redirects clicks over the limit, but stops counting them', async () => {
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'admin');
    const created = await call(t, 'POST', '/api/staff/ads', { token: staff.token, body: TEXT_AD });
    const id = created.json.ad._id as string;
    const guest = await startGuest(t);
    const click = () =>
      fetch(`${t.url}/api/ads/${id}/click`, {
        redirect: 'manual',
        headers: { authorization: `Bearer ${guest.token}`, ...guestHeaders(guest) },
      });
    for (let i = 0; i <= AD_LIMITS.clicksPerViewer.limit; i += 1) {
      const res = await click();
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(TEXT_AD.targetUrl);
    }
    const clicks = await t.database.pool.query('SELECT count(*)::int AS n FROM ad_clicks WHERE ad_id = $1', [id]);
    expect(clicks.rows[0].n).toBe(AD_LIMITS.clicksPerViewer.limit);
  });
});
