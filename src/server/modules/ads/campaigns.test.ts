import { createHash, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { ledgerViolations } from '#server/test/ledger-invariants.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';
import { AD_PACING_HEAD_START_SECONDS } from '#shared/ad-rules.js';
import { AdsService } from './ads.service.js';
import { CampaignsService } from './campaigns.service.js';
import { AdImageStore } from './ad-images.js';

/** A made-up public IPv4 address per viewer name (the tests' server trusts X-Forwarded-For). */
function ipOf(name: string): string {
  const h = createHash('sha256').update(name).digest();
  return `${11 + (h[0]! % 100)}.${h[1]}.${h[2]}.${h[3]}`;
}
const viewerHeaders = (name: string) => ({ 'user-agent': name, 'x-forwarded-for': ipOf(name) });

const PLACEMENT = 'patch-notes';
const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

const CREATIVE = {
  kind: 'text',
  title: 'Cold storage, done right',
  body: 'Hardware wallets shipped worldwide.',
  targetUrl: 'https://wallets.example.com/?ref=olympus',
};

/** Self-serve campaigns paid with credits (docs/product.md#ads, decisions 0280-0282). */
// Generous per-test time: these drive dozens of HTTP calls and the machine running them may be busy.
describe.each(enginesFor('database'))('ad campaigns on %s', { timeout: 120_000 }, (engine) => {
  let t: TestApp;
  let staff: { token: string; userId: string };
  let campaigns: CampaignsService;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', TRUST_PROXY: '1' });
    staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'admin');
    // Campaigns only: no house ad answers for the placement.
    await t.database.pool.query('UPDATE ads SET active = false WHERE campaign_id IS NULL');
    // The same service the app runs, on its job queue (as another instance's job or account closing would).
    campaigns = new CampaignsService(t.database.db, t.app.events);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  afterEach(async () => {
    expect(await ledgerViolations(t.database.db)).toEqual([]);
  });

  const balance = async (userId: string) =>
    Number((await t.database.pool.query('SELECT credits_cents AS c FROM users WHERE id = $1', [userId])).rows[0].c);
  const entries = async (campaignId: string) =>
    (
      await t.database.pool.query<{ kind: string; amount: number; reference: string }>(
        'SELECT kind, amount_cents::int AS amount, reference FROM credit_ledger_entries WHERE reference IN ($1, $2) ORDER BY created_at, reference',
        [`ad-campaign:${campaignId}`, `ad-campaign-refund:${campaignId}`],
      )
    ).rows;
  const campaignRow = async (id: string) =>
    (
      await t.database.pool.query(
        'SELECT status, end_reason, remaining_millicents::bigint AS remaining, refunded_cents::int AS refunded FROM ad_campaigns WHERE id = $1',
        [id],
      )
    ).rows[0] as {
      status: string;
      end_reason: string | null;
      remaining: string;
      refunded: number | null;
    };
  const spent = async (id: string) =>
    Number(
      (
        await t.database.pool.query('SELECT coalesce(sum(spend_millicents), 0)::bigint AS s FROM ad_campaign_days WHERE campaign_id = $1', [
          id,
        ])
      ).rows[0].s,
    );

  async function fundedUser(cents: number) {
    const u = await registerUser(t);
    const res = await call(t, 'POST', '/api/admin/credits/adjustments', {
      token: staff.token,
      body: { userId: u.userId, amount: cents / 100, reason: 'test funds' },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return u;
  }

  function campaignBody(overrides: Record<string, unknown> = {}) {
    return {
      requestId: randomUUID(),
      name: 'Wallet launch',
      placements: [PLACEMENT],
      startsAt: hoursFromNow(-1),
      endsAt: hoursFromNow(24 * 7),
      priceModel: 'cpm',
      priceCents: 1000, // 10.00 per 1,000 viewable impressions: one cent each
      budgetCents: 500,
      creatives: [CREATIVE],
      ...overrides,
    };
  }

  async function createCampaign(owner: { token: string }, overrides: Record<string, unknown> = {}) {
    const res = await call(t, 'POST', '/api/ad-campaigns', { token: owner.token, body: campaignBody(overrides) });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.campaign as { _id: string; creatives: { _id: string }[]; state: string };
  }

  async function approveAll(campaign: { creatives: { _id: string }[] }) {
    for (const c of campaign.creatives) {
      const res = await call(t, 'POST', `/api/staff/ad-reviews/${c._id}/approve`, { token: staff.token });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
  }

  // Each named anonymous viewer is its own network address (docs/decisions/0302: the user agent does not make a viewer).
  const serve = (ua: string) => call(t, 'GET', `/api/ads?placement=${PLACEMENT}`, { headers: viewerHeaders(ua) });
  const impression = (adId: string, ua: string) => call(t, 'POST', `/api/ads/${adId}/impression`, { headers: viewerHeaders(ua) });
  // As if 31 minutes had passed since the ad's last counted impression (the viewer's and the address's gates).
  const forgetGate = async (adId: string) => {
    await t.database.pool.query("UPDATE ad_viewer_impressions SET last_counted_at = now() - interval '31 minutes' WHERE ad_id = $1", [
      adId,
    ]);
    await t.database.pool.query("UPDATE ad_address_charges SET last_charged_at = now() - interval '31 minutes' WHERE ad_id = $1", [adId]);
  };
  /** Ends the running campaigns other tests left, so each test's campaign is the only one served. */
  const clearStage = async () => {
    const open = await t.database.pool.query("SELECT id FROM ad_campaigns WHERE status <> 'ended'");
    await t.database.db.transaction(async (tx) => {
      for (const row of open.rows as { id: string }[]) await campaigns.endCampaign(tx, row.id, 'stopped');
    });
  };

  it('reserves the budget, serves nothing before review, then serves and charges viewable impressions and refunds the rest once', async () => {
    await clearStage();
    const owner = await fundedUser(2000);
    const campaign = await createCampaign(owner);
    expect(campaign.state).toBe('in-review');
    expect(await balance(owner.userId)).toBe(1500);
    expect(await entries(campaign._id)).toEqual([{ kind: 'spend', amount: -500, reference: `ad-campaign:${campaign._id}` }]);
    const creative = campaign.creatives[0]!._id;

    // Nothing unreviewed is ever served, and an impression of it is not counted or charged.
    for (let i = 0; i < 15; i += 1) expect((await serve(`reader-pre-${i}`)).json.ad).toBeNull();
    expect((await impression(creative, 'reader-pre-0')).json).toEqual({ recorded: false });
    expect(await spent(campaign._id)).toBe(0);

    // Staff see it waiting, approve it; it is served with its tracked link.
    const queue = await call(t, 'GET', '/api/staff/ad-reviews', { token: staff.token });
    expect(queue.json.items.map((i: { creative: { _id: string } }) => i.creative._id)).toContain(creative);
    await approveAll(campaign);
    const served = await serve('reader-1');
    expect(served.json.ad).toMatchObject({
      _id: creative,
      placement: PLACEMENT,
      title: CREATIVE.title,
      displayHost: 'wallets.example.com',
      clickUrl: `/api/ads/${creative}/click`,
    });
    expect(JSON.stringify(served.json)).not.toContain('ref=olympus');

    // A viewable impression draws one cent (1,000 thousandths) from the reservation.
    expect((await impression(creative, 'reader-1')).json).toEqual({ recorded: true });
    expect(await spent(campaign._id)).toBe(1000);
    expect(Number((await campaignRow(campaign._id)).remaining)).toBe(499_000);
    expect(await balance(owner.userId)).toBe(1500);

    const report = await call(t, 'GET', `/api/ad-campaigns/${campaign._id}/report?days=7`, { token: owner.token });
    expect(report.status).toBe(200);
    expect(report.json.rows).toEqual([
      // The impression before review was not counted at all: an ad that is not live has no traffic.
      {
        day: new Date().toISOString().slice(0, 10),
        creativeId: creative,
        creativeTitle: CREATIVE.title,
        served: 1,
        viewable: 1,
        invalid: 0,
        invalidReasons: { robot: 0, overCap: 0, unmatched: 0, unrecorded: 0 },
        clicks: 0,
        clickThroughRate: 0,
        spendMillicents: 1000,
      },
    ]);
    expect(report.json.campaign).toMatchObject({ state: 'running', spentMillicents: 1000, remainingMillicents: 499_000 });

    // Stopping gives back the unspent 4.99 once; stopping again changes nothing.
    const stopped = await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token });
    expect(stopped.status).toBe(200);
    expect(stopped.json.campaign).toMatchObject({ state: 'ended', endReason: 'stopped', refundedCents: 499, remainingMillicents: 0 });
    expect((await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token })).status).toBe(200);
    expect(await balance(owner.userId)).toBe(1999);
    expect(await entries(campaign._id)).toEqual([
      { kind: 'spend', amount: -500, reference: `ad-campaign:${campaign._id}` },
      { kind: 'refund', amount: 499, reference: `ad-campaign-refund:${campaign._id}` },
    ]);
    // An ended campaign is no longer served, counted or changeable.
    expect((await serve('reader-after')).json.ad).toBeNull();
    expect((await impression(creative, 'reader-1')).json).toEqual({ recorded: false });
    expect((await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/resume`, { token: owner.token })).json.code).toBe('CAMPAIGN_ENDED');
  });

  it('never overspends a budget under 50 parallel impressions from two instances, and refunds the rest when it is spent', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    // 30 cents an impression (300.00 CPM): 10.00 pays for 33 impressions and leaves 10 cents.
    const campaign = await createCampaign(owner, { priceCents: 30_000, budgetCents: 1000 });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    // A second instance's batcher on the same database, next to the app's.
    const other = new AdsService(t.database.db, t.config.jwtSecret, new AdImageStore(async () => Buffer.alloc(0)));
    const viewers = Array.from({ length: 50 }, (_, i) => `race-viewer-${i}`);
    for (const ua of viewers) expect((await serve(ua)).json.ad?._id).toBe(creative);
    const viewerOf = (ua: string) => ({ userId: null, guestId: null, ip: ipOf(ua), userAgent: ua });
    const answers = await Promise.all(
      viewers.map((ua, i) =>
        i % 2 === 0
          ? impression(creative, ua).then((r) => r.json.recorded as boolean)
          : other.recordImpression(creative, other.viewerKey(viewerOf(ua)), false, other.addressKey(viewerOf(ua))),
      ),
    );
    // At most 33 were paid for, whichever instance wrote them; once nothing pays for one more the
    // creative is no longer live, and later impressions are neither counted nor charged.
    const recorded = answers.filter(Boolean).length;
    expect(recorded).toBeGreaterThanOrEqual(33);
    expect(answers.filter((a, i) => a && i % 2 === 0).length).toBeGreaterThan(0);
    expect(answers.filter((a, i) => a && i % 2 === 1).length).toBeGreaterThan(0);
    expect(await spent(campaign._id)).toBe(33 * 30_000);
    expect(Number((await campaignRow(campaign._id)).remaining)).toBe(10_000);
    expect((await serve('race-late')).json.ad).toBeNull();

    // The end job sees that what is left cannot pay for one more impression, ends it and refunds 10 cents.
    expect(await campaigns.endDueCampaigns()).toBeGreaterThanOrEqual(1);
    expect(await campaignRow(campaign._id)).toMatchObject({ status: 'ended', end_reason: 'budget-spent', refunded: 10 });
    expect(await balance(owner.userId)).toBe(10);
    expect(await entries(campaign._id)).toEqual([
      { kind: 'spend', amount: -1000, reference: `ad-campaign:${campaign._id}` },
      { kind: 'refund', amount: 10, reference: `ad-campaign-refund:${campaign._id}` },
    ]);
  });

  it('caps what each viewer is served per day (and so what is charged) and serves the campaign to others', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner, { frequencyCap: 2 });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    for (let round = 0; round < 2; round += 1) {
      expect((await serve('capped-viewer')).json.ad?._id).toBe(creative);
      expect((await impression(creative, 'capped-viewer')).json).toEqual({ recorded: true });
      await forgetGate(creative);
    }
    expect(await spent(campaign._id)).toBe(2000);
    // The third time this viewer gets nothing from this campaign; another viewer still gets it.
    expect((await serve('capped-viewer')).json.ad).toBeNull();
    expect((await serve('fresh-viewer')).json.ad?._id).toBe(creative);
    // An impression past the cap (the served record is still fresh) is not charged, and counted as invalid.
    expect((await impression(creative, 'capped-viewer')).json).toEqual({ recorded: true });
    expect(await spent(campaign._id)).toBe(2000);
    const report = await call(t, 'GET', `/api/ad-campaigns/${campaign._id}/report`, { token: owner.token });
    expect(report.json.rows[0]).toEqual(
      expect.objectContaining({
        served: 3,
        viewable: 2,
        invalid: 1,
        invalidReasons: { robot: 0, overCap: 1, unmatched: 0, unrecorded: 0 },
        spendMillicents: 2000,
      }),
    );
  });

  it('paces a daily budget across the day instead of spending it at once', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    // 10 cents an impression, 1.00 a day out of 10.00.
    const campaign = await createCampaign(owner, { priceCents: 10_000, budgetCents: 1000, dailyBudgetCents: 100 });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    const since = Number(
      (
        await t.database.pool.query(
          "SELECT extract(epoch FROM (now() AT TIME ZONE 'UTC') - date_trunc('day', now() AT TIME ZONE 'UTC'))::float AS s",
        )
      ).rows[0].s,
    );
    const allowed = 100_000 * Math.min(1, (since + AD_PACING_HEAD_START_SECONDS) / 86_400);
    let shown = 0;
    for (let i = 0; i < 30; i += 1) {
      const ad = (await serve(`paced-${i}`)).json.ad;
      if (!ad) break;
      expect((await impression(creative, `paced-${i}`)).json).toEqual({ recorded: true });
      shown += 1;
    }
    const spentNow = await spent(campaign._id);
    // Serving stopped once the day's share was reached: at most one impression over it, far from the total.
    expect(spentNow).toBeGreaterThanOrEqual(allowed);
    expect(spentNow).toBeLessThan(allowed + 10_000);
    expect(shown).toBe(spentNow / 10_000);
    expect(spentNow).toBeLessThan(1000 * 1000);
    expect((await campaignRow(campaign._id)).status).toBe('active');
  });

  it('counts invalid traffic apart by reason and never charges it: robots, impressions without a served ad, repeats, over the cap', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner, { frequencyCap: 1 });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    const bot = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
    expect((await serve(bot)).json.ad).toBeNull();
    expect((await impression(creative, bot)).json).toEqual({ recorded: false });
    expect((await impression(creative, 'never-served')).json).toEqual({ recorded: false });
    expect((await serve('real-reader')).json.ad?._id).toBe(creative);
    expect((await impression(creative, 'real-reader')).json).toEqual({ recorded: true });
    expect((await impression(creative, 'real-reader')).json).toEqual({ recorded: false });
    // Half an hour later, the same serve still fresh: counted again, but past the cap of 1 a day.
    await forgetGate(creative);
    expect((await impression(creative, 'real-reader')).json).toEqual({ recorded: true });
    expect(await spent(campaign._id)).toBe(1000);
    const reportRow = async () => {
      const report = await call(t, 'GET', `/api/ad-campaigns/${campaign._id}/report`, { token: owner.token });
      expect(report.status).toBe(200);
      expect(report.json.rows).toHaveLength(1);
      const row = report.json.rows[0] as { invalid: number; invalidReasons: Record<string, number> };
      const r = row.invalidReasons;
      expect(r.robot! + r.overCap! + r.unmatched! + r.unrecorded!).toBe(row.invalid);
      return row;
    };
    // The robot; no serve to "never-served" and the repeat within the window are unmatched; the last is over the cap.
    expect(await reportRow()).toEqual(
      expect.objectContaining({
        served: 1,
        viewable: 1,
        invalid: 4,
        invalidReasons: { robot: 1, overCap: 1, unmatched: 2, unrecorded: 0 },
        spendMillicents: 1000,
      }),
    );
    const csv = async () => {
      const res = await fetch(`${t.url}/api/ad-campaigns/${campaign._id}/report.csv`, {
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.status).toBe(200);
      return (await res.text()).split('\r\n');
    };
    const day = new Date().toISOString().slice(0, 10);
    const title = `"${CREATIVE.title}"`; // quoted: it holds a comma
    expect(await csv()).toEqual([
      'day,creative_id,creative,served,viewable,invalid,invalid_robot,invalid_over_cap,invalid_unmatched,clicks,ctr,spend',
      `${day},${creative},${title},1,1,4,1,1,2,0,0.0000,0.01000`,
      '',
    ]);

    // A day row tallied before reasons were kept (their columns at 0): its invalid traffic is unrecorded,
    // and what comes after is added with its reason.
    await t.database.pool.query(
      'UPDATE ad_campaign_days SET invalid_robot = 0, invalid_over_cap = 0, invalid_unmatched = 0 WHERE ad_id = $1',
      [creative],
    );
    expect((await reportRow()).invalidReasons).toEqual({ robot: 0, overCap: 0, unmatched: 0, unrecorded: 4 });
    expect((await impression(creative, bot)).json).toEqual({ recorded: false });
    expect(await reportRow()).toMatchObject({ invalid: 5, invalidReasons: { robot: 1, overCap: 0, unmatched: 0, unrecorded: 4 } });
    expect((await csv())[1]).toBe(`${day},${creative},${title},1,1,5,1,0,0,0,0.0000,0.01000`);
    expect(await spent(campaign._id)).toBe(1000);
  });

  it('counts one impression once whatever the letter case of its id, and a batch holding both cases loses nobody else’s', async () => {
    await clearStage();
    const owner = await fundedUser(2000);
    const campaign = await createCampaign(owner);
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    for (const ua of ['case-a', 'case-b', 'case-c']) expect((await serve(ua)).json.ad).toMatchObject({ _id: creative });
    const batcher = new AdsService(t.database.db, t.config.jwtSecret, new AdImageStore(async () => Buffer.alloc(0)));
    const viewer = (ua: string) => {
      const v = { userId: null, guestId: null, ip: ipOf(ua), userAgent: ua };
      return [batcher.viewerKey(v), batcher.addressKey(v)] as const;
    };
    const record = (id: string, ua: string) => batcher.recordImpression(id, viewer(ua)[0], false, viewer(ua)[1]);
    // The first call writes alone; the three made while it writes meet in the next batch: one viewer's
    // impression as typed and upper-cased, and another viewer's.
    const answers = await Promise.all([
      record(creative, 'case-c'),
      record(creative, 'case-a'),
      record(creative.toUpperCase(), 'case-a'),
      record(creative, 'case-b'),
    ]);
    expect(answers).toEqual([true, true, false, true]);
    expect(await spent(campaign._id)).toBe(3000);
    const report = await call(t, 'GET', `/api/ad-campaigns/${campaign._id}/report?days=7`, { token: owner.token });
    expect(report.json.rows).toEqual([expect.objectContaining({ viewable: 3, spendMillicents: 3000 })]);
  });

  it('charges a CPC click once per viewer, only for a served creative', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner, { priceModel: 'cpc', priceCents: 25 });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    const click = (ua: string) => fetch(`${t.url}/api/ads/${creative}/click`, { redirect: 'manual', headers: viewerHeaders(ua) });
    expect((await click('clicker-unserved')).status).toBe(302);
    expect(await spent(campaign._id)).toBe(0);
    expect((await serve('clicker')).json.ad?._id).toBe(creative);
    // Impressions of a CPC campaign are counted, not charged.
    expect((await impression(creative, 'clicker')).json).toEqual({ recorded: true });
    expect(await spent(campaign._id)).toBe(0);
    const first = await click('clicker');
    expect(first.headers.get('location')).toBe(CREATIVE.targetUrl);
    await click('clicker');
    expect(await spent(campaign._id)).toBe(25_000);
    expect(Number((await campaignRow(campaign._id)).remaining)).toBe(500_000 - 25_000);
  });

  it('does not serve a campaign before its start date, nor a paused one', async () => {
    await clearStage();
    const owner = await fundedUser(2000);
    const later = await createCampaign(owner, { startsAt: hoursFromNow(2), endsAt: hoursFromNow(48) });
    await approveAll(later);
    expect((await call(t, 'GET', `/api/ad-campaigns/${later._id}`, { token: owner.token })).json.campaign.state).toBe('scheduled');
    expect((await serve('early-bird')).json.ad).toBeNull();

    const now = await createCampaign(owner);
    await approveAll(now);
    expect((await serve('pause-1')).json.ad?._id).toBe(now.creatives[0]!._id);
    expect((await call(t, 'POST', `/api/ad-campaigns/${now._id}/pause`, { token: owner.token })).json.campaign.state).toBe('paused');
    expect((await serve('pause-2')).json.ad).toBeNull();
    expect((await impression(now.creatives[0]!._id, 'pause-1')).json).toEqual({ recorded: false });
    expect((await call(t, 'POST', `/api/ad-campaigns/${now._id}/resume`, { token: owner.token })).json.campaign.state).toBe('running');
    expect((await serve('pause-3')).json.ad?._id).toBe(now.creatives[0]!._id);

    // Past its end date, the end job ends it and refunds the whole unspent budget.
    await t.database.pool.query(
      "UPDATE ad_campaigns SET starts_at = now() - interval '2 days', ends_at = now() - interval '1 minute' WHERE id = $1",
      [now._id],
    );
    expect((await serve('pause-4')).json.ad).toBeNull();
    await campaigns.endDueCampaigns();
    expect(await campaignRow(now._id)).toMatchObject({ status: 'ended', end_reason: 'finished', refunded: 500 });
  });

  it('sends a changed creative back to review and serves nothing of it until approved again', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner);
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    expect((await serve('edit-1')).json.ad?._id).toBe(creative);
    const changed = await call(t, 'PUT', `/api/ad-campaigns/${campaign._id}/creatives/${creative}`, {
      token: owner.token,
      body: { ...CREATIVE, title: 'A new headline' },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect(changed.json.campaign.creatives[0]).toMatchObject({ title: 'A new headline', reviewStatus: 'pending' });
    for (let i = 0; i < 5; i += 1) expect((await serve(`edit-x${i}`)).json.ad).toBeNull();
    expect((await impression(creative, 'edit-1')).json).toEqual({ recorded: false });
    await approveAll(campaign);
    expect((await serve('edit-2')).json.ad).toMatchObject({ _id: creative, title: 'A new headline' });
  });

  it('rejects with a reason (audited) and refunds a campaign left with nothing to show', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner);
    const creative = campaign.creatives[0]!._id;
    expect((await call(t, 'POST', `/api/staff/ad-reviews/${creative}/reject`, { token: owner.token, body: { reason: 'no' } })).status).toBe(
      403,
    );
    const rejected = await call(t, 'POST', `/api/staff/ad-reviews/${creative}/reject`, {
      token: staff.token,
      body: { reason: 'Misleading claim about returns' },
    });
    expect(rejected.status, JSON.stringify(rejected.json)).toBe(200);
    expect(rejected.json.creative).toMatchObject({ reviewStatus: 'rejected', reviewReason: 'Misleading claim about returns' });
    expect(rejected.json.campaign).toMatchObject({ state: 'ended', endReason: 'rejected', refundedCents: 500 });
    expect(await balance(owner.userId)).toBe(1000);
    const again = await call(t, 'POST', `/api/staff/ad-reviews/${creative}/approve`, { token: staff.token });
    expect(again.status).toBe(409);
    const audit = await t.database.pool.query('SELECT action, reason FROM audit_log WHERE target_id = $1', [creative]);
    expect(audit.rows).toEqual([{ action: 'ad-creative.reject', reason: 'Misleading claim about returns' }]);
    const owned = await call(t, 'GET', `/api/ad-campaigns/${campaign._id}`, { token: owner.token });
    expect(owned.json.campaign.creatives[0].reviewReason).toBe('Misleading claim about returns');
  });

  it('refunds exactly once when stop, the end job and a rejection race', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner);
    await t.database.pool.query(
      "UPDATE ad_campaigns SET starts_at = now() - interval '2 days', ends_at = now() - interval '1 minute' WHERE id = $1",
      [campaign._id],
    );
    await Promise.all([
      call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token }),
      campaigns.endDueCampaigns(),
      call(t, 'POST', `/api/staff/ad-reviews/${campaign.creatives[0]!._id}/reject`, {
        token: staff.token,
        body: { reason: 'Racing the stop' },
      }),
      call(t, 'POST', `/api/ad-campaigns/${campaign._id}/stop`, { token: owner.token }),
      campaigns.endDueCampaigns(),
    ]);
    const money = await entries(campaign._id);
    expect(money.filter((e) => e.kind === 'refund')).toEqual([
      { kind: 'refund', amount: 500, reference: `ad-campaign-refund:${campaign._id}` },
    ]);
    expect(await balance(owner.userId)).toBe(1000);
  });

  it('refuses a campaign the balance cannot pay for, storing nothing, and creates one campaign for a repeated request', async () => {
    const owner = await fundedUser(400);
    const short = await call(t, 'POST', '/api/ad-campaigns', { token: owner.token, body: campaignBody() });
    expect(short.status).toBe(422);
    expect(short.json.code).toBe('INSUFFICIENT_CREDITS');
    expect((await call(t, 'GET', '/api/ad-campaigns', { token: owner.token })).json.campaigns).toEqual([]);
    expect(await balance(owner.userId)).toBe(400);

    const rich = await fundedUser(1000);
    const body = campaignBody();
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(t, 'POST', '/api/ad-campaigns', { token: rich.token, body })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.json.campaign._id))).toEqual(new Set([body.requestId]));
    expect(await balance(rich.userId)).toBe(500);
    // Someone else using that request id gets nothing of it.
    expect((await call(t, 'POST', '/api/ad-campaigns', { token: owner.token, body })).status).toBe(409);
  });

  it("shows advertisers only their own campaigns (someone else's is a 404) and staff all of them", async () => {
    const owner = await fundedUser(1000);
    const stranger = await fundedUser(0 + 100);
    const campaign = await createCampaign(owner);
    for (const path of [
      `/api/ad-campaigns/${campaign._id}`,
      `/api/ad-campaigns/${campaign._id}/report`,
      `/api/ad-campaigns/${campaign._id}/report.csv`,
    ]) {
      expect((await call(t, 'GET', path, { token: stranger.token })).status).toBe(404);
    }
    for (const action of ['pause', 'resume', 'stop']) {
      expect((await call(t, 'POST', `/api/ad-campaigns/${campaign._id}/${action}`, { token: stranger.token })).status).toBe(404);
    }
    expect(
      (
        await call(t, 'PUT', `/api/ad-campaigns/${campaign._id}/creatives/${campaign.creatives[0]!._id}`, {
          token: stranger.token,
          body: CREATIVE,
        })
      ).status,
    ).toBe(404);
    expect((await call(t, 'GET', '/api/ad-campaigns', { token: stranger.token })).json.campaigns).toEqual([]);
    expect((await campaignRow(campaign._id)).status).toBe('active');
    const all = await call(t, 'GET', '/api/staff/ad-campaigns', { token: staff.token });
    expect(all.json.campaigns.map((c: { _id: string }) => c._id)).toContain(campaign._id);
    expect((await call(t, 'GET', `/api/staff/ad-campaigns/${campaign._id}/report`, { token: staff.token })).status).toBe(200);
    expect((await call(t, 'GET', '/api/staff/ad-campaigns', { token: owner.token })).status).toBe(403);
  });

  it('exports the report as CSV with formula cells defused', async () => {
    await clearStage();
    const owner = await fundedUser(1000);
    const campaign = await createCampaign(owner, { creatives: [{ ...CREATIVE, title: '=HYPERLINK("https://evil.example")' }] });
    await approveAll(campaign);
    const creative = campaign.creatives[0]!._id;
    await serve('csv-reader');
    await impression(creative, 'csv-reader');
    const res = await fetch(`${t.url}/api/ad-campaigns/${campaign._id}/report.csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const text = await res.text();
    const day = new Date().toISOString().slice(0, 10);
    expect(text).toBe(
      `day,creative_id,creative,served,viewable,invalid,invalid_robot,invalid_over_cap,invalid_unmatched,clicks,ctr,spend\r\n${day},${creative},"'=HYPERLINK(""https://evil.example"")",1,1,0,0,0,0,0,0.0000,0.01000\r\n`,
    );
  });

  it('ends every open campaign of a user on the caller transaction and refunds each (closing an account)', async () => {
    const owner = await fundedUser(3000);
    const a = await createCampaign(owner);
    const b = await createCampaign(owner);
    const c = await createCampaign(owner);
    await call(t, 'POST', `/api/ad-campaigns/${b._id}/pause`, { token: owner.token });
    await call(t, 'POST', `/api/ad-campaigns/${c._id}/stop`, { token: owner.token });
    expect(await balance(owner.userId)).toBe(2000);
    // Rolled back with its transaction: nothing happens.
    await expect(
      t.database.db.transaction(async (tx) => {
        expect(await campaigns.endCampaignsOfUser(tx, owner.userId)).toBe(2);
        throw new Error('account closing failed');
      }),
    ).rejects.toThrow('account closing failed');
    expect((await campaignRow(a._id)).status).toBe('active');
    expect(await balance(owner.userId)).toBe(2000);

    const ended = await t.database.db.transaction((tx) => campaigns.endCampaignsOfUser(tx, owner.userId));
    expect(ended).toBe(2);
    for (const id of [a._id, b._id])
      expect(await campaignRow(id)).toMatchObject({ status: 'ended', end_reason: 'account-closed', refunded: 500 });
    expect(await balance(owner.userId)).toBe(3000);
    expect(await t.database.db.transaction((tx) => campaigns.endCampaignsOfUser(tx, owner.userId))).toBe(0);
  });

  // ---- House campaigns (docs/decisions/0283) ----------------------------------------------------------

  const ledgerEntriesNaming = async (campaignId: string) =>
    Number(
      (
        await t.database.pool.query(
          'SELECT count(*)::int AS n FROM credit_ledger_entries WHERE reference LIKE $1 OR metadata::text LIKE $1',
          [`%${campaignId}%`],
        )
      ).rows[0].n,
    );
  const ledgerCount = async () => Number((await t.database.pool.query('SELECT count(*)::int AS n FROM credit_ledger_entries')).rows[0].n);

  it('an admin creates a house campaign: approved at once and audit-logged, served and counted, with no balance reserved and no ledger entry', async () => {
    await clearStage();
    const entriesBefore = await ledgerCount();
    const adminBalance = await balance(staff.userId);
    const res = await call(t, 'POST', '/api/staff/ad-campaigns', {
      token: staff.token,
      body: campaignBody({ name: 'Olympus Pro', budgetCents: null }),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const house = res.json.campaign as { _id: string; creatives: { _id: string; reviewStatus: string }[] };
    expect(res.json.campaign).toMatchObject({ house: true, ownerId: null, state: 'running', budgetCents: null, remainingMillicents: null });
    expect(house.creatives.map((c) => c.reviewStatus)).toEqual(['approved']);
    const creative = house.creatives[0]!._id;

    // The admin who made it approved it, in the audit log; it never waits in the review queue.
    const audit = await t.database.pool.query(
      "SELECT actor_id FROM audit_log WHERE action = 'ad-campaign.create-house' AND target_id = $1",
      [house._id],
    );
    expect(audit.rows).toEqual([{ actor_id: staff.userId }]);
    const queue = await call(t, 'GET', '/api/staff/ad-reviews', { token: staff.token });
    expect(queue.json.items.map((i: { creative: { _id: string } }) => i.creative._id)).not.toContain(creative);

    // Served and counted like any campaign; its spend is counted at its price, never paid.
    expect((await serve('house-reader')).json.ad?._id).toBe(creative);
    expect((await impression(creative, 'house-reader')).json).toEqual({ recorded: true });
    expect(await spent(house._id)).toBe(1000);
    expect((await campaignRow(house._id)).remaining).toBeNull();
    expect(await ledgerCount()).toBe(entriesBefore);
    expect(await ledgerEntriesNaming(house._id)).toBe(0);
    expect(await balance(staff.userId)).toBe(adminBalance);

    // Marked in the staff list; not in the admin's own campaigns (no account owns it).
    const list = await call(t, 'GET', '/api/staff/ad-campaigns', { token: staff.token });
    expect(list.json.campaigns.find((c: { _id: string }) => c._id === house._id)).toMatchObject({
      house: true,
      ownerId: null,
      ownerName: expect.any(String),
    });
    expect(
      (await call(t, 'GET', '/api/ad-campaigns', { token: staff.token })).json.campaigns.map((c: { _id: string }) => c._id),
    ).not.toContain(house._id);
    const report = await call(t, 'GET', `/api/staff/ad-campaigns/${house._id}/report?days=1`, { token: staff.token });
    expect(report.json.rows).toMatchObject([{ creativeId: creative, served: 1, viewable: 1, spendMillicents: 1000 }]);

    // Pause, resume and stop: stopping refunds nothing and writes no entry.
    expect((await call(t, 'POST', `/api/staff/ad-campaigns/${house._id}/pause`, { token: staff.token })).json.campaign.state).toBe(
      'paused',
    );
    expect((await serve('house-reader-2')).json.ad).toBeNull();
    expect((await call(t, 'POST', `/api/staff/ad-campaigns/${house._id}/resume`, { token: staff.token })).json.campaign.state).toBe(
      'running',
    );
    const stopped = await call(t, 'POST', `/api/staff/ad-campaigns/${house._id}/stop`, { token: staff.token });
    expect(stopped.json.campaign).toMatchObject({ state: 'ended', endReason: 'stopped', refundedCents: null });
    expect(await ledgerCount()).toBe(entriesBefore);
    expect((await serve('house-reader-3')).json.ad).toBeNull();
  });

  it('a house campaign only takes what no paid campaign is eligible for, and its optional budget is drawn from but never paid or refunded', async () => {
    await clearStage();
    const entriesBefore = await ledgerCount();
    // 30 cents an impression, 5.00 budget: 16 impressions and 20 cents left over.
    const houseRes = await call(t, 'POST', '/api/staff/ad-campaigns', {
      token: staff.token,
      body: campaignBody({ name: 'House with budget', priceCents: 30_000, budgetCents: 500 }),
    });
    expect(houseRes.status, JSON.stringify(houseRes.json)).toBe(201);
    const houseCreative = houseRes.json.campaign.creatives[0]._id as string;
    const owner = await fundedUser(1000);
    const paid = await createCampaign(owner);
    await approveAll(paid);
    const paidCreative = paid.creatives[0]!._id;
    const entriesWithPaid = await ledgerCount();
    expect(entriesWithPaid).toBe(entriesBefore + 2); // the paid campaign's reservation and the funding, nothing for the house

    // While the paid campaign is eligible, every serve is the paid campaign's.
    for (let i = 0; i < 12; i += 1) expect((await serve(`mixed-${i}`)).json.ad?._id).toBe(paidCreative);
    // Paused by its owner, the house campaign fills the placement.
    expect((await call(t, 'POST', `/api/ad-campaigns/${paid._id}/pause`, { token: owner.token })).status).toBe(200);
    const viewers = Array.from({ length: 20 }, (_, i) => `house-budget-${i}`);
    for (const ua of viewers) expect((await serve(ua)).json.ad?._id).toBe(houseCreative);
    const answers = await Promise.all(viewers.map((ua) => impression(houseCreative, ua).then((r) => r.json.recorded as boolean)));
    expect(answers.filter(Boolean).length).toBeGreaterThanOrEqual(16);
    expect(await spent(houseRes.json.campaign._id)).toBe(16 * 30_000);
    expect(Number((await campaignRow(houseRes.json.campaign._id)).remaining)).toBe(20_000);

    // Its budget spent, the end job ends it without any refund.
    expect(await campaigns.endDueCampaigns()).toBeGreaterThanOrEqual(1);
    expect(await campaignRow(houseRes.json.campaign._id)).toMatchObject({ status: 'ended', end_reason: 'budget-spent', refunded: null });
    expect(await ledgerEntriesNaming(houseRes.json.campaign._id)).toBe(0);
    expect(await ledgerCount()).toBe(entriesWithPaid);
  });

  it('only an admin creates or changes a house campaign, and no owner can change one', async () => {
    const user = await fundedUser(1000);
    const moderator = await registerUser(t);
    await setRole(t.database.db, moderator.userId, 'support');
    const before = Number((await t.database.pool.query('SELECT count(*)::int AS n FROM ad_campaigns WHERE house')).rows[0].n);
    const entriesBefore = await ledgerCount();
    expect(
      (await call(t, 'POST', '/api/staff/ad-campaigns', { token: user.token, body: campaignBody({ budgetCents: null }) })).status,
    ).toBe(403);
    expect(
      (await call(t, 'POST', '/api/staff/ad-campaigns', { token: moderator.token, body: campaignBody({ budgetCents: null }) })).status,
    ).toBe(403);
    // The self-serve route has no house: a null budget is refused, and a campaign it creates is paid for.
    expect((await call(t, 'POST', '/api/ad-campaigns', { token: user.token, body: campaignBody({ budgetCents: null }) })).status).toBe(400);
    expect(Number((await t.database.pool.query('SELECT count(*)::int AS n FROM ad_campaigns WHERE house')).rows[0].n)).toBe(before);
    expect(await ledgerCount()).toBe(entriesBefore);
    // Asking for a house campaign there is ignored: it is the user's, and its budget is reserved.
    const sneaky = await call(t, 'POST', '/api/ad-campaigns', { token: user.token, body: { ...campaignBody(), house: true } });
    expect(sneaky.status).toBe(201);
    expect(sneaky.json.campaign).toMatchObject({ house: false, ownerId: user.userId });
    expect(await entries(sneaky.json.campaign._id)).toEqual([
      { kind: 'spend', amount: -500, reference: `ad-campaign:${sneaky.json.campaign._id}` },
    ]);

    const created = await call(t, 'POST', '/api/staff/ad-campaigns', { token: staff.token, body: campaignBody({ budgetCents: null }) });
    const id = created.json.campaign._id as string;
    for (const action of ['pause', 'stop']) {
      expect((await call(t, 'POST', `/api/ad-campaigns/${id}/${action}`, { token: user.token })).status).toBe(404);
      expect((await call(t, 'POST', `/api/staff/ad-campaigns/${id}/${action}`, { token: user.token })).status).toBe(403);
    }
    // A paid campaign is its owner's: staff cannot stop it through the house routes.
    const paid = await createCampaign(user);
    expect((await call(t, 'POST', `/api/staff/ad-campaigns/${paid._id}/stop`, { token: staff.token })).status).toBe(404);
    expect((await campaignRow(paid._id)).status).toBe('active');
    expect((await campaignRow(id)).status).toBe('active');
  });
});
