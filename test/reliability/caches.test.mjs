// decision 0170: the per-instance caches (sessions, users, payment statuses) and the batched impressions,
// with two instances of the production build on one PostgreSQL database. A session ended on one
// instance (logout, ended from the sessions list, by hand in SQL) and a disabled account are refused on
// the other within one second, although the other had them cached; a payment's status changes there
// just as fast; impressions stay counted once per ad and viewer across both; and a crash (SIGKILL) in
// the middle of an impression burst loses no impression that was answered `recorded: true`.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { api, createDatabase, finishedDeposit, freePort, ledgerViolations, pool, postIpn, register, sleep, startServer } from './lib.mjs';

/** Both instances sit behind one load balancer, which says who the client is (X-Forwarded-For). */
const BEHIND_A_PROXY = { TRUST_PROXY: '1' };
/** The i-th address of a block of test addresses: 10.<block>.x.y. */
const addressOf = (block, i) => `10.${block}.${Math.floor(i / 250)}.${(i % 250) + 1}`;

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

/** Calls `probe` every 25 ms until it answers true; answers the milliseconds it took (bounded by `limitMs`). */
async function msUntil(probe, limitMs = 5000) {
  const started = Date.now();
  while (Date.now() - started < limitMs) {
    if (await probe()) return Date.now() - started;
    await sleep(25);
  }
  return Infinity;
}

/** Warms instance `base`'s caches for this token (several calls), then checks it is accepted. */
async function warm(base, token) {
  for (let i = 0; i < 3; i++) assert.equal((await api(base, 'GET', '/api/auth/me', { token })).status, 200);
}

const refusedOn = (base, token) => async () => (await api(base, 'GET', '/api/auth/me', { token })).status === 401;

test(
  'two instances: revocations, disabled accounts and payment statuses reach the other instance within a second; impressions once; a crash loses no answered impression',
  { timeout: 300_000 },
  async () => {
    const db = await createDatabase();
    cleanup.push(() => db.drop());
    const jwtSecret = randomBytes(32).toString('hex');
    const a = await startServer({ databaseUrl: db.url, port: await freePort(), jwtSecret, label: 'instance A', env: BEHIND_A_PROXY });
    cleanup.push(() => a.kill());
    const b = await startServer({ databaseUrl: db.url, port: await freePort(), jwtSecret, label: 'instance B', env: BEHIND_A_PROXY });
    cleanup.push(() => b.kill());

    // Logout on A: B, which had the session cached, refuses it within a second.
    const alice = await register(a.url, 'cache');
    await warm(b.url, alice.token);
    assert.equal((await api(a.url, 'POST', '/api/logout', { token: alice.token })).status, 200);
    const afterLogout = await msUntil(refusedOn(b.url, alice.token));
    assert.ok(afterLogout < 1000, `B accepted a logged-out session for ${afterLogout} ms`);
    // ... and keeps refusing it (nothing re-cached from a read in flight).
    await sleep(300);
    assert.equal((await api(b.url, 'GET', '/api/auth/me', { token: alice.token })).status, 401);

    // A session ended from the sessions list on B, while A has it cached.
    const bob = await register(b.url, 'cache');
    const bobLogin = await api(a.url, 'POST', '/api/login', {
      body: { username: bob.username, password: 'a long passphrase 42', turnstileToken: 'ok' },
    });
    assert.equal(bobLogin.status, 200, bobLogin.text);
    const second = bobLogin.json.token;
    await warm(a.url, second);
    const list = await api(b.url, 'GET', '/api/auth/sessions', { token: bob.token });
    const other = list.json.sessions.find((s) => !s.current);
    assert.ok(other, JSON.stringify(list.json));
    assert.equal((await api(b.url, 'DELETE', `/api/auth/sessions/${other._id ?? other.id}`, { token: bob.token })).status, 200);
    const afterEnd = await msUntil(refusedOn(a.url, second));
    assert.ok(afterEnd < 1000, `A accepted an ended session for ${afterEnd} ms`);

    // Revoked by hand in SQL (no instance involved): both refuse within a second.
    const carol = await register(a.url, 'cache');
    await warm(a.url, carol.token);
    await warm(b.url, carol.token);
    await db.pool.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [carol.userId]);
    const bySql = Math.max(await msUntil(refusedOn(a.url, carol.token)), await msUntil(refusedOn(b.url, carol.token)));
    assert.ok(bySql < 1000, `a session revoked in SQL was accepted for ${bySql} ms`);

    // An admin on A disables an account whose session B has cached.
    const admin = await register(a.url, 'cacheadmin');
    await db.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
    const dave = await register(b.url, 'cache');
    await warm(b.url, dave.token);
    const disabled = await api(a.url, 'PUT', `/api/admin/users/${dave.userId}/disabled`, {
      token: admin.token,
      body: { disabled: true, reason: 'reliability test' },
    });
    assert.equal(disabled.status, 200, disabled.text);
    const afterDisable = await msUntil(refusedOn(b.url, dave.token));
    assert.ok(afterDisable < 1000, `B accepted a disabled account's session for ${afterDisable} ms`);

    // A payment polled on B (cached there) is credited through an IPN on A: B shows it within a second.
    const erin = await register(a.url, 'cache');
    const deposit = await finishedDeposit(a.url, erin);
    const poll = () => api(b.url, 'GET', `/api/payments/${deposit.payment._id}/status`, { token: erin.token });
    for (let i = 0; i < 3; i++) assert.equal((await poll()).json.paymentData.payment_status, 'waiting');
    assert.equal((await postIpn(a.url, deposit.ipn)).status, 200);
    const onA = await api(a.url, 'GET', `/api/payments/${deposit.payment._id}/status`, { token: erin.token });
    assert.equal(onA.json.paymentData.payment_status, 'completed');
    const afterIpn = await msUntil(async () => (await poll()).json.paymentData.payment_status === 'completed');
    assert.ok(afterIpn < 1000, `B showed the old status for ${afterIpn} ms`);
    assert.deepEqual(await ledgerViolations(db.pool), []);

    // Impressions: each viewer's impression sent 6 times at once, half to each instance: counted once.
    const ad = await api(a.url, 'POST', '/api/staff/ads', {
      token: admin.token,
      body: { placement: 'home-banner', title: 'Cache ad', targetUrl: 'https://example.com/' },
    });
    assert.equal(ad.status, 201, ad.text);
    const adId = ad.json.ad._id;
    // Anonymous viewers are told apart by their address (decision 0302): each gets its own.
    const viewers = Array.from({ length: 40 }, (_, i) => addressOf(1, i));
    const sends = viewers.flatMap((address) => Array.from({ length: 6 }, (_, k) => ({ address, base: k % 2 ? b.url : a.url })));
    const answers = await pool(sends, 48, (s) =>
      api(s.base, 'POST', `/api/ads/${adId}/impression`, { headers: { 'x-forwarded-for': s.address } }),
    );
    const recorded = new Map();
    for (const [i, r] of answers.entries()) {
      assert.ok(r.ok && r.value.status === 200, r.ok ? r.value.text : String(r.error));
      if (r.value.json.recorded) recorded.set(sends[i].address, (recorded.get(sends[i].address) ?? 0) + 1);
    }
    assert.deepEqual([...new Set(recorded.values())], [1], 'each viewer recorded exactly once');
    assert.equal(recorded.size, viewers.length);
    const rows = await db.pool.query('SELECT count(*)::int AS n FROM ad_impressions WHERE ad_id = $1', [adId]);
    assert.equal(rows.rows[0].n, viewers.length);

    // The crash bound: a burst of new viewers on A, A killed (SIGKILL) in the middle. Every impression A
    // answered `recorded: true` is in the table; what is lost is at most what was not answered.
    const burst = Array.from({ length: 3000 }, (_, i) => addressOf(2, i));
    const answered = [];
    let unanswered = 0;
    const sending = pool(burst, 48, async (address) => {
      try {
        const res = await api(a.url, 'POST', `/api/ads/${adId}/impression`, { headers: { 'x-forwarded-for': address }, timeoutMs: 5000 });
        if (res.status === 200 && res.json.recorded) answered.push(address);
        else if (res.status !== 200) unanswered++;
      } catch {
        unanswered++;
      }
    });
    await msUntil(async () => answered.length >= 300, 60_000);
    await a.kill('SIGKILL');
    await sending;
    assert.ok(answered.length >= 300, `only ${answered.length} impressions answered before the crash`);
    const stored = await db.pool.query('SELECT viewer_key FROM ad_impressions WHERE ad_id = $1', [adId]);
    const storedCount = stored.rows.length - viewers.length;
    // Viewer keys are keyed hashes, so compare counts: nothing answered is missing ...
    assert.ok(storedCount >= answered.length, `${answered.length} answered recorded, ${storedCount} stored`);
    // ... and at most the unanswered ones were written without an answer (the batch in flight).
    assert.ok(
      storedCount <= answered.length + unanswered,
      `${storedCount} stored > ${answered.length} answered + ${unanswered} unanswered`,
    );
    const gate = await db.pool.query('SELECT count(*)::int AS n FROM ad_viewer_impressions WHERE ad_id = $1', [adId]);
    assert.equal(gate.rows[0].n, stored.rows.length, 'every gate row has its impression (one statement: both or neither)');
    console.log(
      `revocation reached the other instance in ${afterLogout} ms (logout), ${afterEnd} ms (ended session), ${bySql} ms (SQL), ${afterDisable} ms (disabled); payment status in ${afterIpn} ms; crash: ${answered.length} answered recorded, ${storedCount} stored, ${unanswered} unanswered`,
    );
  },
);
