// Sustained load: mixed traffic (payment-status pollers, ad impressions, logins, /api/auth/me) for a
// bounded time, reporting the server's RSS at the start, peak and end. No errors allowed.
// Duration: --soak-seconds=N or RELIABILITY_SOAK_SECONDS (the issue's figure is 300; default 30).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { api, createDatabase, finishedDeposit, flag, freePort, PASSWORD, register, secs, sleep, startServer } from './lib.mjs';

const SOAK_MS = flag('soak-seconds', 'RELIABILITY_SOAK_SECONDS', 30) * 1000;

const cleanup = [];
after(async () => {
  for (const fn of cleanup.reverse()) await fn().catch(() => {});
});

test(`${SOAK_MS / 1000} s of mixed traffic: no errors, memory reported`, { timeout: SOAK_MS + 180_000 }, async () => {
  const db = await createDatabase();
  cleanup.push(() => db.drop());
  const server = await startServer({ databaseUrl: db.url, port: await freePort(), jwtSecret: randomBytes(32).toString('hex') });
  cleanup.push(() => server.kill());

  const users = [];
  for (let i = 0; i < 4; i++) users.push(await register(server.url, 'soak'));
  const payments = [];
  for (const user of users) payments.push({ user, id: (await finishedDeposit(server.url, user)).payment._id });
  const admin = users[0];
  await db.pool.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
  const ad = await api(server.url, 'POST', '/api/staff/ads', {
    token: admin.token,
    body: { placement: 'home-banner', title: 'Soak ad', targetUrl: 'https://example.com/' },
  });
  assert.equal(ad.status, 201, ad.text);
  const adId = ad.json.ad._id;

  const counts = {};
  const errors = [];
  const latencies = [];
  const record = (kind, res, ok) => {
    counts[kind] = (counts[kind] ?? 0) + 1;
    latencies.push(res.ms);
    if (!ok) errors.push(`${kind}: ${res.status} ${res.text.slice(0, 200)}`);
  };
  const deadline = Date.now() + SOAK_MS;
  // Loads, each a loop until the deadline: 6 status pollers, 3 impression senders, 1 login loop (argon2
  // bound, so one is plenty), 2 /api/auth/me callers.
  const poller = async (i) => {
    const { user, id } = payments[i % payments.length];
    while (Date.now() < deadline) {
      const res = await api(server.url, 'GET', `/api/payments/${id}/status`, { token: user.token });
      record('status poll', res, res.status === 200);
      await sleep(50);
    }
  };
  const impressions = async (i) => {
    let n = 0;
    while (Date.now() < deadline) {
      // A new viewer now and then, as page views from many visitors would be.
      const res = await api(server.url, 'POST', `/api/ads/${adId}/impression`, { headers: { 'x-viewer-id': `soak-${i}-${n++ % 50}` } });
      record('impression', res, res.status >= 200 && res.status < 300);
      await sleep(50);
    }
  };
  const logins = async () => {
    while (Date.now() < deadline) {
      const user = users[Math.floor(Math.random() * users.length)];
      const res = await api(server.url, 'POST', '/api/login', {
        body: { username: user.username, password: PASSWORD, turnstileToken: 'ok' },
      });
      record('login', res, res.status === 200);
      // Sign the new session out again, so sessions do not pile up beyond what a real day would have.
      if (res.status === 200) await api(server.url, 'POST', '/api/logout', { token: res.json.token });
      await sleep(100);
    }
  };
  const me = async (i) => {
    const user = users[i % users.length];
    while (Date.now() < deadline) {
      const res = await api(server.url, 'GET', '/api/auth/me', { token: user.token });
      record('auth/me', res, res.status === 200);
      await sleep(20);
    }
  };

  const rss = { start: await server.rssMiB(), peak: 0, samples: [] };
  const sampler = (async () => {
    while (Date.now() < deadline) {
      const now = await server.rssMiB();
      if (now !== null) {
        rss.samples.push(now);
        rss.peak = Math.max(rss.peak, now);
      }
      await sleep(1000);
    }
  })();
  const started = Date.now();
  await Promise.all([
    ...Array.from({ length: 6 }, (_, i) => poller(i)),
    ...Array.from({ length: 3 }, (_, i) => impressions(i)),
    logins(),
    ...Array.from({ length: 2 }, (_, i) => me(i)),
    sampler,
  ]);
  const elapsed = Date.now() - started;
  rss.end = await server.rssMiB();
  latencies.sort((x, y) => x - y);
  const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  const total = Object.values(counts).reduce((s, n) => s + n, 0);
  console.log(
    `# ${total} requests in ${secs(elapsed)} (${Math.round(total / (elapsed / 1000))}/s): ${Object.entries(counts)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  console.log(`# latency p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; errors ${errors.length}`);
  // Warm: the highest RSS in the first quarter of the run, once the heap and argon2's buffers have grown to size.
  const warm = Math.max(...rss.samples.slice(0, Math.max(1, Math.floor(rss.samples.length / 4))));
  console.log(`# RSS idle ${rss.start} MiB, warm ${warm} MiB, peak ${rss.peak} MiB, end ${rss.end} MiB`);

  assert.deepEqual(errors.slice(0, 10), [], 'no errors under sustained load');
  assert.ok(total > 0);
  // Stable memory: after warming up, the end is within 48 MiB of the warm figure (a leak at this traffic grows faster).
  if (rss.end !== null && rss.samples.length > 0) assert.ok(rss.end - warm < 48, `RSS grew from ${warm} (warm) to ${rss.end} MiB`);
  await server.stop();
});
