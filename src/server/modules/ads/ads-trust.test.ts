import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AD_IMAGE_MAX_BYTES } from '#shared/ad-rules.js';
import { call, registerUser, startGuest } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { AdImageRefusedError, httpImageFetcher } from './ad-images.js';
import { networkOf } from './ads.service.js';
import { CampaignsService } from './campaigns.service.js';

/**
 * Paid ads you can trust (docs/security.md#paid-ads, docs/decisions/0302, 0303): each finding an
 * attacker reproduced over HTTP, reproduced here.
 */

const PLACEMENT = 'patch-notes';
const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
const TARGET = 'https://wallets.example.com/?ref=olympus';
const CREATIVE = { kind: 'text', title: 'Cold storage, done right', body: 'Hardware wallets shipped worldwide.', targetUrl: TARGET };

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** The advertiser's image server, as the tests' fetcher sees it: what each address answers now, and who asked. */
const imageServer = { answers: new Map<string, Buffer>(), fetched: [] as string[] };
async function fakeFetcher(url: string): Promise<Buffer> {
  imageServer.fetched.push(url);
  const bytes = imageServer.answers.get(url);
  if (!bytes) throw new AdImageRefusedError('the image server answered 404');
  return bytes;
}

describe.each(enginesFor('database'))('paid ads you can trust on %s', { timeout: 120_000 }, (engine) => {
  let t: TestApp;
  let staff: { token: string; userId: string };
  let campaigns: CampaignsService;

  beforeAll(async () => {
    // X-Forwarded-For is trusted here so that each test viewer can come from an address of its own.
    t = await startTestApp(engine, { RATE_LIMITS: '0', TRUST_PROXY: '1' }, { adImageFetcher: fakeFetcher });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'admin');
    await t.database.pool.query('UPDATE ads SET active = false WHERE campaign_id IS NULL');
    campaigns = new CampaignsService(t.database.db, t.app.events);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  const spent = async (id: string) =>
    Number(
      (
        await t.database.pool.query('SELECT coalesce(sum(spend_millicents), 0)::bigint AS s FROM ad_campaign_days WHERE campaign_id = $1', [
          id,
        ])
      ).rows[0].s,
    );
  const remaining = async (id: string) =>
    Number((await t.database.pool.query('SELECT remaining_millicents AS r FROM ad_campaigns WHERE id = $1', [id])).rows[0].r);

  async function fundedUser(cents: number) {
    const u = await registerUser(t);
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: staff.token,
      body: { userId: u.userId, amount: cents / 100, reason: 'test funds' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return u;
  }

  async function createCampaign(owner: { token: string }, overrides: Record<string, unknown> = {}) {
    const body = {
      requestId: randomUUID(),
      name: 'Wallet launch',
      placements: [PLACEMENT],
      startsAt: hoursFromNow(-1),
      endsAt: hoursFromNow(24 * 7),
      priceModel: 'cpc',
      priceCents: 10, // 0.10 a click
      budgetCents: 500,
      creatives: [CREATIVE],
      ...overrides,
    };
    const res = await call(t, 'POST', '/api/ad-campaigns', { token: owner.token, body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.campaign as { _id: string; creatives: { _id: string }[] };
  }

  const approve = (creativeId: string) => call(t, 'POST', `/api/staff/ad-reviews/${creativeId}/approve`, { token: staff.token });
  async function approveAll(campaign: { creatives: { _id: string }[] }) {
    for (const c of campaign.creatives) {
      const res = await approve(c._id);
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
  }

  const from = (ip: string, userAgent = 'Mozilla/5.0 (trust test)') => ({ 'x-forwarded-for': ip, 'user-agent': userAgent });
  const serve = (headers: Record<string, string>, token?: string) => call(t, 'GET', `/api/ads?placement=${PLACEMENT}`, { headers, token });
  const click = (adId: string, headers: Record<string, string>, token?: string) =>
    fetch(`${t.url}/api/ads/${adId}/click`, {
      redirect: 'manual',
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
  /** Ends the campaigns other tests left running, so each test's campaign is the only one served. */
  const clearStage = async () => {
    const open = await t.database.pool.query("SELECT id FROM ad_campaigns WHERE status <> 'ended'");
    await t.database.db.transaction(async (tx) => {
      for (const row of open.rows as { id: string }[]) await campaigns.endCampaign(tx, row.id, 'stopped');
    });
  };

  describe('finding 1: the click redirect goes only to a target staff approved', () => {
    it('answers 404 for a creative never approved, also after its campaign is stopped and refunded', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner, { creatives: [{ ...CREATIVE, targetUrl: 'https://phishing.example.net/login' }] });
      const creative = campaign.creatives[0]!._id;
      const before = await click(creative, from('203.0.113.20'));
      expect(before.status).toBe(404);
      expect(before.headers.get('location')).toBeNull();
      expect((await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token })).status).toBe(200);
      expect((await click(creative, from('203.0.113.20'))).status).toBe(404);
    });

    it('keeps redirecting an edited creative to its last approved target until the edit is approved; a rejected one is 404', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner);
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      expect((await click(creative, from('203.0.113.21'))).headers.get('location')).toBe(TARGET);

      const edit = (targetUrl: string) =>
        call(t, 'PUT', `/api/ad-campaigns/${campaign._id}/creatives/${creative}`, { token: owner.token, body: { ...CREATIVE, targetUrl } });
      expect((await edit('https://evil.example.net/')).status).toBe(200);
      const pending = await click(creative, from('203.0.113.21'));
      expect(pending.status).toBe(302);
      expect(pending.headers.get('location')).toBe(TARGET);

      expect((await approve(creative)).status).toBe(200);
      expect((await click(creative, from('203.0.113.21'))).headers.get('location')).toBe('https://evil.example.net/');

      expect((await edit('https://worse.example.net/')).status).toBe(200);
      const rejected = await call(t, 'POST', `/api/staff/ad-reviews/${creative}/reject`, {
        token: staff.token,
        body: { reason: 'Misleading' },
      });
      expect(rejected.status).toBe(200);
      expect((await click(creative, from('203.0.113.21'))).status).toBe(404);
    });

    it("redirects a stopped campaign's approved creative to its approved target without charging", async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner);
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      expect((await serve(from('203.0.113.22'))).json.ad?._id).toBe(creative);
      expect((await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token })).status).toBe(200);
      const res = await click(creative, from('203.0.113.22'));
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(TARGET);
      expect(await spent(campaign._id)).toBe(0);
    });
  });

  describe('finding 2: paid clicks and impressions are limited per network address and guest age', () => {
    it('charges one click per creative and address, whatever the user agent (40 rotations)', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner);
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      for (let i = 0; i < 40; i += 1) {
        const headers = from('198.51.100.40', `Farm/${i}`);
        expect((await serve(headers)).json.ad?._id).toBe(creative);
        expect((await click(creative, headers)).status).toBe(302);
      }
      expect(await spent(campaign._id)).toBe(10_000);
      expect(await remaining(campaign._id)).toBe(500_000 - 10_000);
    });

    it('charges one CPM impression per creative and address, whatever the user agent', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner, { priceModel: 'cpm', priceCents: 10_000 });
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      for (let i = 0; i < 20; i += 1) {
        const headers = from('198.51.100.41', `Farm/${i}`);
        expect((await serve(headers)).json.ad?._id).toBe(creative);
        await call(t, 'POST', `/api/ads/${creative}/impression`, { headers });
      }
      expect(await spent(campaign._id)).toBe(10_000);
    });

    it('serves a guest minted minutes ago house ads only; old guests and accounts behind one address are charged once', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner);
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      const address = from('198.51.100.42');
      // Forty fresh guests: none is a paid viewer, so none is served the campaign or charged a click.
      for (let i = 0; i < 40; i += 1) {
        const guest = await startGuest(t);
        expect((await serve(address, guest.token)).json.ad).toBeNull();
        expect((await click(creative, address, guest.token)).status).toBe(302);
      }
      expect(await spent(campaign._id)).toBe(0);

      // Guests an hour old (and accounts) are paid viewers, but one address is charged once per window.
      const oldGuests = await Promise.all(Array.from({ length: 5 }, () => startGuest(t)));
      await t.database.pool.query("UPDATE sessions SET created_at = now() - interval '2 hours' WHERE guest_id = ANY($1)", [
        oldGuests.map((g) => g.guestId),
      ]);
      const users = await Promise.all(Array.from({ length: 3 }, () => registerUser(t)));
      for (const viewer of [...oldGuests, ...users]) {
        expect((await serve(address, viewer.token)).json.ad?._id).toBe(creative);
        expect((await click(creative, address, viewer.token)).status).toBe(302);
      }
      expect(await spent(campaign._id)).toBe(10_000);
      // Another address is another paid viewer.
      expect((await serve(from('198.51.100.43'))).json.ad?._id).toBe(creative);
      await click(creative, from('198.51.100.43'));
      expect(await spent(campaign._id)).toBe(20_000);
    });

    it('counts an IPv6 /64 as one address and an IPv4-mapped address as its IPv4 address', () => {
      expect(networkOf('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(networkOf('2001:db8:1:2::1'));
      expect(networkOf('2001:db8:1:2::1')).not.toBe(networkOf('2001:db8:1:3::1'));
      expect(networkOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
      expect(networkOf('198.51.100.7')).not.toBe(networkOf('198.51.100.8'));
    });

    it('charges one click per IPv6 /64 over HTTP', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner);
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      for (const ip of ['2001:db8:5:6::1', '2001:db8:5:6::2', '2001:db8:5:6:ffff::9', '2001:db8:5:7::1']) {
        expect((await serve(from(ip))).json.ad?._id).toBe(creative);
        await click(creative, from(ip));
      }
      expect(await spent(campaign._id)).toBe(20_000);
    });
  });

  describe('finding 3: the frequency cap counts what a viewer is served', () => {
    it('serves a campaign capped at 2 a day twice in ten requests', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner, { frequencyCap: 2 });
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      const served: (string | undefined)[] = [];
      for (let i = 0; i < 10; i += 1) served.push((await serve(from('198.51.100.50'))).json.ad?._id);
      expect(served.filter((id) => id === creative)).toHaveLength(2);
      // Someone else still gets it.
      expect((await serve(from('198.51.100.51'))).json.ad?._id).toBe(creative);
    });
  });

  describe('finding 4: the daily budget holds at click time', () => {
    it('charges 30 parallel clicks of served viewers no more than the daily budget, and the ledger stays exact', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      // 0.10 a click, 1.00 a day: ten clicks a day out of a 5.00 budget.
      const campaign = await createCampaign(owner, { dailyBudgetCents: 100 });
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      const viewers = Array.from({ length: 30 }, (_, i) => from(`192.0.${200 + Math.floor(i / 200)}.${(i % 200) + 1}`));
      for (const v of viewers) expect((await serve(v)).json.ad?._id).toBe(creative);
      const answers = await Promise.all(viewers.map((v) => click(creative, v)));
      // Every click still goes where the visitor wanted.
      expect(answers.map((r) => r.status)).toEqual(Array(30).fill(302));
      expect(await spent(campaign._id)).toBe(100_000);
      expect(await remaining(campaign._id)).toBe(500_000 - 100_000);
      const day = await t.database.pool.query(
        'SELECT sum(clicks)::int AS clicks, spend_today_millicents::bigint AS today FROM ad_campaign_days d JOIN ad_campaigns c ON c.id = d.campaign_id WHERE d.campaign_id = $1 GROUP BY c.spend_today_millicents',
        [campaign._id],
      );
      expect({ clicks: Number(day.rows[0].clicks), today: Number(day.rows[0].today) }).toEqual({ clicks: 30, today: 100_000 });
      // Stopping refunds exactly what was not charged.
      const stopped = await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token });
      expect(stopped.json.campaign.refundedCents).toBe(400);
    });

    it('draws CPM impressions within the daily budget too', async () => {
      await clearStage();
      const owner = await fundedUser(1000);
      // 0.10 an impression, 1.00 a day.
      const campaign = await createCampaign(owner, { priceModel: 'cpm', priceCents: 10_000, dailyBudgetCents: 100 });
      const creative = campaign.creatives[0]!._id;
      await approveAll(campaign);
      const viewers = Array.from({ length: 20 }, (_, i) => from(`192.0.210.${i + 1}`));
      // Served before any was charged (pacing looks at today's spend, still nothing), then all viewed at once.
      for (const v of viewers) expect((await serve(v)).json.ad?._id).toBe(creative);
      await Promise.all(viewers.map((v) => call(t, 'POST', `/api/ads/${creative}/impression`, { headers: v })));
      expect(await spent(campaign._id)).toBe(100_000);
    });
  });

  describe('finding 5: approved images are ours', () => {
    const IMAGE_URL = 'https://img.advertiser.example/wallet.png';
    const imageCreative = (imageUrl = IMAGE_URL) => ({ ...CREATIVE, kind: 'image', imageUrl, imageAlt: 'A hardware wallet' });

    it('takes the image once at approval and serves it from our origin, unchanged when the advertiser changes theirs', async () => {
      await clearStage();
      imageServer.answers.set(IMAGE_URL, PNG);
      imageServer.fetched.length = 0;
      const owner = await fundedUser(1000);
      const campaign = await createCampaign(owner, { creatives: [imageCreative()] });
      const creative = campaign.creatives[0]!._id;
      expect(imageServer.fetched).toEqual([]);
      await approveAll(campaign);
      expect(imageServer.fetched).toEqual([IMAGE_URL]);

      const ad = (await serve(from('198.51.100.60'))).json.ad;
      expect(ad._id).toBe(creative);
      expect(ad.imageUrl).toMatch(/^\/api\/ads\/images\/[0-9a-f-]{36}$/);
      expect(JSON.stringify(ad)).not.toContain('advertiser.example');

      // The advertiser swaps the picture behind the reviewed address: viewers still get the reviewed one.
      imageServer.answers.set(IMAGE_URL, GIF);
      const image = await fetch(`${t.url}${ad.imageUrl}`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
      expect(imageServer.fetched).toEqual([IMAGE_URL]);

      // A new image address is a new review: not served until approved, then the new picture.
      const newUrl = 'https://img.advertiser.example/wallet-2.gif';
      imageServer.answers.set(newUrl, GIF);
      const edited = await call(t, 'PUT', `/api/ad-campaigns/${campaign._id}/creatives/${creative}`, {
        token: owner.token,
        body: imageCreative(newUrl),
      });
      expect(edited.status).toBe(200);
      expect((await serve(from('198.51.100.61'))).json.ad).toBeNull();
      expect((await approve(creative)).status).toBe(200);
      const after = (await serve(from('198.51.100.61'))).json.ad;
      expect(after.imageUrl).not.toBe(ad.imageUrl);
      const newImage = await fetch(`${t.url}${after.imageUrl}`);
      expect(newImage.headers.get('content-type')).toBe('image/gif');
    });

    it('refuses to approve an image that is not a picture, too large, or unreachable: 422 and still waiting', async () => {
      await clearStage();
      const owner = await fundedUser(2500); // four campaigns of 5.00
      const cases: [string, Buffer | undefined][] = [
        ['https://img.advertiser.example/page.png', Buffer.from('<!doctype html><script>alert(1)</script>')],
        ['https://img.advertiser.example/vector.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
        ['https://img.advertiser.example/huge.png', Buffer.concat([PNG, Buffer.alloc(AD_IMAGE_MAX_BYTES)])],
        ['https://img.advertiser.example/missing.png', undefined],
      ];
      for (const [url, bytes] of cases) {
        if (bytes) imageServer.answers.set(url, bytes);
        const campaign = await createCampaign(owner, { creatives: [imageCreative(url)] });
        const res = await approve(campaign.creatives[0]!._id);
        expect(res.status, url).toBe(422);
        expect(res.json.code).toBe('AD_IMAGE_REFUSED');
        const row = await t.database.pool.query('SELECT review_status, approved_image_id FROM ads WHERE id = $1', [
          campaign.creatives[0]!._id,
        ]);
        expect(row.rows[0]).toEqual({ review_status: 'pending', approved_image_id: null });
      }
    });

    it('serves only images an ad uses, and answers 404 for any other id', async () => {
      const orphan = await t.database.pool.query(
        "INSERT INTO ad_images (source_url, content_type, bytes, byte_size, sha256) VALUES ('https://x.example/a.png', 'image/png', '\\x00', 1, 'x') RETURNING id",
      );
      expect((await fetch(`${t.url}/api/ads/images/${orphan.rows[0].id}`)).status).toBe(404);
      expect((await fetch(`${t.url}/api/ads/images/${randomUUID()}`)).status).toBe(404);
    });
  });
});

describe('the image fetcher: the webhooks outbound-request safety', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/redirect.png') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(PNG);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses private, loopback and link-local addresses and plain http', async () => {
    const fetcher = httpImageFetcher({ allowPrivate: false });
    for (const url of [
      `${base}/a.png`,
      'https://127.0.0.1/a.png',
      'https://169.254.169.254/a.png',
      'https://[::1]/a.png',
      'https://10.0.0.5/a.png',
    ]) {
      await expect(fetcher(url), url).rejects.toBeInstanceOf(AdImageRefusedError);
    }
  });

  it('fetches the bytes where private targets are allowed, and never follows a redirect', async () => {
    const fetcher = httpImageFetcher({ allowPrivate: true });
    expect((await fetcher(`${base}/a.png`)).equals(PNG)).toBe(true);
    await expect(fetcher(`${base}/redirect.png`)).rejects.toThrow(/redirects/);
  });
});
