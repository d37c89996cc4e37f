import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, registerUser } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { setRole } from '#server/modules/users/users.service.js';

const HOUR = 3600_000;

/** The feed's title, and each entry's title and summary, as a strict XML parser reads them. */
function readFeed(xml: string) {
  const feed = new JSDOM(xml, { contentType: 'application/xml' }).window.document.documentElement;
  const text = (el: Element, name: string) => el.getElementsByTagName(name)[0]!.textContent;
  return {
    lang: feed.getAttribute('xml:lang'),
    title: [...feed.children].find((el) => el.localName === 'title')!.textContent,
    entries: [...feed.getElementsByTagName('entry')].map((e) => ({ title: text(e, 'title'), summary: text(e, 'summary') })),
  };
}

/** The status feed's own words in the reader's language; what staff wrote stays as written (docs/decisions/0331). */
describe.each(enginesFor('database'))('the status feed in the reader language on %s', (engine) => {
  let t: TestApp;
  const incident = `Slow top-ups ${Date.now().toString(36)}`;
  const window = `Database upgrade ${Date.now().toString(36)}`;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', PUBLIC_URL: 'https://olympus.example' });
    const staff = await registerUser(t);
    await setRole(t.database.db, staff.userId, 'support');
    const created = await call(t, 'POST', '/api/status/incidents', {
      token: staff.token,
      body: { title: incident, impact: 'major', message: 'We are looking into it.' },
    });
    expect(created.status).toBe(201);
    const start = Date.UTC(2099, 0, 15, 14, 5);
    const scheduled = await call(t, 'POST', '/api/status/maintenance', {
      token: staff.token,
      body: {
        title: window,
        description: 'A short pause in top-ups.',
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(start + HOUR).toISOString(),
      },
    });
    expect(scheduled.status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  const fetchFeed = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${t.url}/api/status/feed.atom${query}`, { headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    return readFeed(await res.text());
  };

  it('writes the feed in German for Accept-Language: de', async () => {
    const feed = await fetchFeed('', { 'accept-language': 'de-DE,de;q=0.9' });
    expect(feed.lang).toBe('de');
    expect(feed.title).toBe('Olympus-Status: Störungen und Wartungen');
    const entry = feed.entries.find((e) => e.title === `Störung: ${incident}`);
    expect(entry?.summary).toBe('Auswirkung: schwer, Status: wird untersucht. We are looking into it.');
    const maintenance = feed.entries.find((e) => e.title === `Geplante Wartung: ${window}`);
    expect(maintenance?.summary).toBe('Von 15. Januar 2099 um 14:05 UTC bis 15. Januar 2099 um 15:05 UTC. A short pause in top-ups.');
  });

  it('writes the feed in Russian for ?lang=ru, whatever the header says', async () => {
    const feed = await fetchFeed('?lang=ru', { 'accept-language': 'de' });
    expect(feed.lang).toBe('ru');
    expect(feed.title).toBe('Статус Olympus: инциденты и технические работы');
    expect(feed.entries.find((e) => e.title === `Инцидент: ${incident}`)?.summary).toBe(
      'Влияние: серьёзное, статус: расследуется. We are looking into it.',
    );
    expect(feed.entries.map((e) => e.title)).toContain(`Плановые работы: ${window}`);
  });

  it('stays English without a language, and for a language it does not speak', async () => {
    for (const feed of [
      await fetchFeed(''),
      await fetchFeed('?lang=xx', { 'accept-language': 'fr' }),
      await fetchFeed('?lang=en', { 'accept-language': 'de' }),
    ]) {
      expect(feed.lang).toBe('en');
      expect(feed.title).toBe('Olympus status: incidents and maintenance');
      expect(feed.entries.find((e) => e.title === `Incident: ${incident}`)?.summary).toBe(
        'major impact, investigating. We are looking into it.',
      );
      expect(feed.entries.find((e) => e.title === `Scheduled maintenance: ${window}`)?.summary).toBe(
        'From 2099-01-15 14:05 UTC to 2099-01-15 15:05 UTC. A short pause in top-ups.',
      );
    }
    // Spanish from the header when ?lang= names nothing the product speaks.
    expect((await fetchFeed('?lang=xx', { 'accept-language': 'es' })).title).toBe('Estado de Olympus: incidentes y mantenimiento');
  });
});
