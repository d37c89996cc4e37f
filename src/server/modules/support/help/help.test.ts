import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { deposit } from '#server/test/payments.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { renderHelpMarkdown, helpExcerpt } from './help-markdown.js';
import { toPrefixQuery } from './help.service.js';

/** The help centre (decision 0290) and the requester context beside a ticket (decision 0291). */

type Summary = { slug: string; title: string; category: string; excerpt: string };
const SEEDED = [
  'payment-stuck-in-confirming',
  'partial-payment',
  'payment-expired',
  'swap-did-not-arrive',
  'claiming-rewards',
  'two-factor-recovery',
];

describe('help article Markdown', () => {
  it('renders no HTML of the author, no script links and no images', () => {
    const html = renderHelpMarkdown(
      'Hi <script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) ![pic](https://evil.example/x.png)',
    );
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/href="javascript:/i);
  });

  it('keeps ordinary formatting and opens outside links without the referrer', () => {
    const html = renderHelpMarkdown('**Wait.**\n\n1. One\n2. Two\n\n[Status](/status) and [explorer](https://blockstream.info)');
    expect(html).toContain('<strong>Wait.</strong>');
    expect(html).toContain('<ol>');
    expect(html).toContain('<a href="/status">Status</a>');
    expect(html).toContain('<a href="https://blockstream.info" rel="nofollow noopener noreferrer" target="_blank">explorer</a>');
  });

  it('makes a plain-text excerpt', () => {
    expect(helpExcerpt('**Bold** and [a link](/x)\n\n1. step')).toBe('Bold and a link step');
    expect(helpExcerpt('word '.repeat(100)).length).toBeLessThanOrEqual(181);
  });

  it('turns whatever is typed into a safe prefix query', () => {
    expect(toPrefixQuery('Payment stuck!')).toBe('payment:* | stuck:*');
    expect(toPrefixQuery("a & | ! ( ) : * ' \\")).toBeNull();
    expect(toPrefixQuery('two-factor')).toBe('two:* | factor:*');
  });
});

describe.each(enginesFor('database'))('help centre on %s', (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string; username: string };
  let admin: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
    admin = await registerUser(t);
    await setRole(t.database.db, admin.userId, 'admin');
  });
  afterAll(async () => {
    await t?.close();
  });

  const search = async (q: string) => {
    const res = await call(t, 'GET', `/api/help/articles?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return (res.json.articles as Summary[]).map((a) => a.slug);
  };

  it('starts with the answers to the common questions, published, by category', async () => {
    const res = await call(t, 'GET', '/api/help/articles');
    expect(res.status).toBe(200);
    const slugs = (res.json.articles as Summary[]).map((a) => a.slug);
    for (const slug of SEEDED) expect(slugs).toContain(slug);
    expect(res.json.categories).toEqual(expect.arrayContaining(['Payments', 'Exchange', 'Rewards', 'Account & security']));
    const payments = await call(t, 'GET', '/api/help/articles?category=Payments');
    expect((payments.json.articles as Summary[]).every((a) => a.category === 'Payments')).toBe(true);
    expect((payments.json.articles as Summary[]).length).toBeGreaterThanOrEqual(3);
  });

  it('ranks the article that answers the question first', async () => {
    expect((await search('payment stuck confirming'))[0]).toBe('payment-stuck-in-confirming');
    expect((await search('lost my authenticator phone two factor'))[0]).toBe('two-factor-recovery');
    expect((await search('swap not arrived'))[0]).toBe('swap-did-not-arrive');
    expect((await search('sent less than the amount'))[0]).toBe('partial-payment');
    expect((await search('claim code reward'))[0]).toBe('claiming-rewards');
    // A word typed halfway still finds it (prefix), and stemming matches "expired" for "expire".
    expect(await search('confirmi')).toContain('payment-stuck-in-confirming');
    expect(await search('confirmat')).toContain('payment-stuck-in-confirming');
    expect((await search('expire'))[0]).toBe('payment-expired');
    // Nothing matches: an empty list, not an error; tsquery syntax typed by someone is harmless.
    expect(await search('zebra xylophone')).toEqual([]);
    expect(await search("!&|():*'")).toEqual([]);
    expect(await search('payment & (stuck')).toContain('payment-stuck-in-confirming');
  });

  it('shows one article at its own address, rendered; an unknown one is 404', async () => {
    const res = await call(t, 'GET', '/api/help/articles/payment-stuck-in-confirming');
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ slug: 'payment-stuck-in-confirming', category: 'Payments' });
    expect(res.json.html).toContain('<strong>Do not pay again.</strong>');
    expect((await call(t, 'GET', '/api/help/articles/no-such-article')).status).toBe(404);
  });

  it('lets staff write drafts nobody else sees, publish them, and records each change as a sentence', async () => {
    const body = {
      slug: 'withdrawals',
      title: 'Can I withdraw credits?',
      category: 'Payments',
      body: 'Credits are **not** withdrawable; spend them on the catalogue.',
      status: 'draft',
    };
    const created = await call(t, 'POST', '/api/staff/help/articles', { token: support.token, body });
    expect(created.status).toBe(201);
    const id = created.json.article.id as string;
    expect(created.json.article).toMatchObject({ slug: 'withdrawals', status: 'draft', publishedAt: null });

    // A draft is nowhere public: not in the list, not in search, not at its address, not suggested.
    expect(await search('withdraw credits')).not.toContain('withdrawals');
    expect((await call(t, 'GET', '/api/help/articles/withdrawals')).status).toBe(404);
    const user = await registerUser(t);
    const suggested = await call(t, 'GET', '/api/help/suggestions?q=withdraw', { token: user.token });
    expect((suggested.json.articles as Summary[]).map((a) => a.slug)).not.toContain('withdrawals');
    // Staff see it.
    const staffList = await call(t, 'GET', '/api/staff/help/articles', { token: support.token });
    expect((staffList.json.articles as Array<{ slug: string }>).map((a) => a.slug)).toContain('withdrawals');

    const published = await call(t, 'PUT', `/api/staff/help/articles/${id}`, {
      token: support.token,
      body: { ...body, status: 'published' },
    });
    expect(published.status).toBe(200);
    expect(published.json.article.publishedAt).not.toBeNull();
    expect(await search('withdraw credits')).toContain('withdrawals');
    expect((await call(t, 'GET', '/api/help/articles/withdrawals')).json.html).toContain('<strong>not</strong>');

    // Another article cannot take the same address.
    const clash = await call(t, 'POST', '/api/staff/help/articles', { token: support.token, body: { ...body, title: 'Another one' } });
    expect(clash.status).toBe(409);
    const other = await call(t, 'POST', '/api/staff/help/articles', { token: support.token, body: { ...body, slug: 'withdrawals-2' } });
    expect(
      (await call(t, 'PUT', `/api/staff/help/articles/${other.json.article.id}`, { token: support.token, body: { ...body } })).status,
    ).toBe(409);

    const audit = await call(t, 'GET', `/api/admin/audit?targetId=${id}`, { token: admin.token });
    expect(audit.status).toBe(200);
    const summaries = (audit.json.entries as Array<{ action: string; summary: string }>).map((e) => e.summary);
    expect(summaries).toEqual(
      expect.arrayContaining([
        expect.stringContaining('wrote the help article “Can I withdraw credits?” (draft)'),
        expect.stringContaining('published the help article “Can I withdraw credits?”'),
      ]),
    );
    // The log keeps the length of the text, not the text.
    expect(JSON.stringify(audit.json.entries)).not.toContain('withdrawable');
  });

  it('refuses an article that is not well formed', async () => {
    const bad = await call(t, 'POST', '/api/staff/help/articles', {
      token: support.token,
      body: { slug: 'Has Spaces', title: 'x', category: '', body: '', status: 'live' },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.details.fields).sort()).toEqual(['body', 'category', 'slug', 'status', 'title']);
  });

  it('counts one vote per person, which they can change', async () => {
    const user = await registerUser(t);
    const vote = (helpful: boolean, token?: string) =>
      call(t, 'POST', '/api/help/articles/partial-payment/vote', { token, body: { helpful } });
    expect((await vote(true, user.token)).status).toBe(204);
    expect((await vote(true, user.token)).status).toBe(204);
    const counts = async () => {
      const list = await call(t, 'GET', '/api/staff/help/articles', { token: support.token });
      const a = (list.json.articles as Array<{ slug: string; helpfulCount: number; notHelpfulCount: number }>).find(
        (x) => x.slug === 'partial-payment',
      )!;
      return [a.helpfulCount, a.notHelpfulCount];
    };
    expect(await counts()).toEqual([1, 0]);
    await vote(false, user.token);
    expect(await counts()).toEqual([0, 1]);
    // A visitor without a session votes once by address.
    await vote(true);
    await vote(true);
    expect(await counts()).toEqual([1, 1]);
    // Ten people voting at once: every vote counted once.
    const people = await Promise.all(Array.from({ length: 10 }, () => registerUser(t)));
    await Promise.all(people.map((p) => vote(true, p.token)));
    expect(await counts()).toEqual([11, 1]);
    expect((await call(t, 'POST', '/api/help/articles/no-such/vote', { body: { helpful: true } })).status).toBe(404);
    expect((await call(t, 'POST', '/api/help/articles/partial-payment/vote', { body: { helpful: 'yes' } })).status).toBe(400);
  });

  it('suggests up to three articles to someone writing a ticket, and counts the tickets they avoided', async () => {
    const user = await registerUser(t);
    expect((await call(t, 'GET', '/api/help/suggestions?q=payment')).status).toBe(401);
    const res = await call(t, 'GET', '/api/help/suggestions?q=my%20payment%20expired', { token: user.token });
    expect(res.status).toBe(200);
    const slugs = (res.json.articles as Summary[]).map((a) => a.slug);
    expect(slugs.length).toBeLessThanOrEqual(3);
    expect(slugs[0]).toBe('payment-expired');

    const avoided = async () => {
      const list = await call(t, 'GET', '/api/staff/help/articles', { token: support.token });
      const a = (list.json.articles as Array<{ slug: string; suggestedOpens: number; ticketsAvoided: number }>).find(
        (x) => x.slug === 'payment-expired',
      )!;
      return { opens: a.suggestedOpens, avoided: a.ticketsAvoided, totals: list.json.totals as { ticketsAvoided: number } };
    };
    const before = await avoided();

    // Two people open the suggestion; one sends the ticket anyway, the other does not.
    const sender = await registerUser(t);
    const guest = await startGuest(t);
    expect((await call(t, 'POST', '/api/help/deflections', { token: user.token, body: { slug: 'payment-expired' } })).status).toBe(204);
    expect((await call(t, 'POST', '/api/help/deflections', { token: sender.token, body: { slug: 'payment-expired' } })).status).toBe(204);
    expect(
      (
        await call(t, 'POST', '/api/help/deflections', {
          token: guest.token,
          headers: guestHeaders(guest),
          body: { slug: 'payment-expired' },
        })
      ).status,
    ).toBe(204);
    const ticket = await call(t, 'POST', '/api/tickets', {
      token: sender.token,
      body: { subject: 'Payment expired', category: 'payments', priority: 'normal', message: 'Still not credited.' },
    });
    expect(ticket.status).toBe(201);
    // Inside the day nothing counts as avoided yet.
    expect(await avoided()).toMatchObject({ opens: before.opens + 3, avoided: before.avoided });
    // A day later: the user and the guest sent nothing (two avoided); the sender's ticket came after.
    await t.database.db.execute(sql`UPDATE help_deflections SET opened_at = opened_at - interval '25 hours'`);
    await t.database.db.execute(
      sql`UPDATE tickets SET created_at = created_at - interval '25 hours' WHERE id = ${ticket.json.ticket._id as string}`,
    );
    const after = await avoided();
    expect(after.avoided - before.avoided).toBe(2);
    expect(after.totals.ticketsAvoided).toBeGreaterThanOrEqual(2);
    expect((await call(t, 'POST', '/api/help/deflections', { token: user.token, body: { slug: 'no-such' } })).status).toBe(404);
  });

  it('shows staff who asks: account, balance, money and other open tickets, and nothing secret', async () => {
    const user = await registerUser(t);
    const payment = await deposit(t, user.token);
    const first = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { subject: 'Top-up missing', category: 'payments', priority: 'high', message: 'Where is it?' },
    });
    const second = await call(t, 'POST', '/api/tickets', {
      token: user.token,
      body: { subject: 'Another question', category: 'general', priority: 'low', message: 'Hello' },
    });
    const id = first.json.ticket._id as string;

    const res = await call(t, 'GET', `/api/staff/tickets/${id}/requester`, { token: support.token });
    expect(res.status).toBe(200);
    const r = res.json.requester;
    expect(r.kind).toBe('user');
    expect(r.account).toMatchObject({
      id: user.userId,
      username: user.username,
      emailVerified: false,
      twoFactor: { totp: false, passkeys: 0 },
      balanceCents: 0,
      disabled: false,
    });
    expect(r.payments).toEqual([expect.objectContaining({ id: payment._id, status: 'waiting', label: 'btc top-up' })]);
    expect(r.openTickets).toEqual([expect.objectContaining({ id: second.json.ticket._id, subject: 'Another question' })]);
    expect(JSON.stringify(r)).not.toMatch(/password|secret|hash/i);

    // A guest's ticket: no account, their own tickets only.
    const guest = await startGuest(t);
    const guestTicket = await call(t, 'POST', '/api/tickets/guest', {
      token: guest.token,
      headers: guestHeaders(guest),
      body: { subject: 'Swap?', category: 'exchange', priority: 'normal', message: 'Hi' },
    });
    const g = await call(t, 'GET', `/api/staff/tickets/${guestTicket.json.ticket._id}/requester`, { token: support.token });
    expect(g.json.requester).toMatchObject({ kind: 'guest', account: null, payments: [], orders: [], openTickets: [] });

    // Only staff: the requester themselves cannot read it; unknown tickets are 404.
    expect((await call(t, 'GET', `/api/staff/tickets/${id}/requester`, { token: user.token })).status).toBe(403);
    expect(
      (await call(t, 'GET', '/api/staff/tickets/00000000-0000-4000-8000-000000000000/requester', { token: support.token })).status,
    ).toBe(404);
  });

  it("answers in the reader's language where staff wrote a translation, in English otherwise, and as always without one", async () => {
    const slug = 'payment-stuck-in-confirming';
    const english = await call(t, 'GET', `/api/help/articles/${slug}`);
    const list = await call(t, 'GET', '/api/help/articles');
    const articles = (await call(t, 'GET', '/api/staff/help/articles', { token: support.token })).json.articles as Array<{
      id: string;
      slug: string;
    }>;
    const id = articles.find((a) => a.slug === slug)!.id;
    const path = `/api/staff/help/articles/${id}/translations`;

    // Only staff write translations, into a language other than English, with a title and a text.
    const user = await registerUser(t);
    const body = {
      title: 'Zahlung hängt bei „confirming“',
      body: 'Zahle **nicht** noch einmal. Die Blockchain bestätigt die Überweisung.',
    };
    expect((await call(t, 'PUT', `${path}/de`, { token: user.token, body })).status).toBe(403);
    expect((await call(t, 'PUT', `${path}/en`, { token: support.token, body })).status).toBe(400);
    expect((await call(t, 'PUT', `${path}/de`, { token: support.token, body: { title: '', body: '' } })).status).toBe(400);
    expect(
      (
        await call(t, 'PUT', '/api/staff/help/articles/00000000-0000-4000-8000-000000000000/translations/de', {
          token: support.token,
          body,
        })
      ).status,
    ).toBe(404);
    const put = await call(t, 'PUT', `${path}/de`, { token: support.token, body });
    expect(put.status).toBe(200);
    expect(put.json.translation).toMatchObject({ locale: 'de', title: body.title, body: body.body });
    // Written again: changed in place, one per article and language.
    const changed = { ...body, title: 'Zahlung hängt bei „Bestätigung“' };
    expect((await call(t, 'PUT', `${path}/de`, { token: support.token, body: changed })).status).toBe(200);
    const listed = await call(t, 'GET', path, { token: support.token });
    expect(listed.json.translations).toEqual([expect.objectContaining({ locale: 'de', title: changed.title })]);

    // German readers read it in German, in the list, the search and at its address; the others in English.
    const de = await call(t, 'GET', `/api/help/articles/${slug}?locale=de`);
    expect(de.json).toMatchObject({ slug, title: changed.title, category: 'Payments' });
    expect(de.json.html).toContain('<strong>nicht</strong>');
    const deList = (await call(t, 'GET', '/api/help/articles?locale=de')).json.articles as Summary[];
    expect(deList.find((a) => a.slug === slug)).toMatchObject({ title: changed.title, excerpt: expect.stringContaining('Zahle nicht') });
    expect(deList.map((a) => a.slug)).toEqual((list.json.articles as Summary[]).map((a) => a.slug));
    const other = deList.find((a) => a.slug !== slug)!;
    expect(other.title).toBe((list.json.articles as Summary[]).find((a) => a.slug === other.slug)!.title);
    const found = await call(t, 'GET', `/api/help/articles?locale=de&q=${encodeURIComponent('Überweisung hängt')}`);
    expect((found.json.articles as Summary[])[0]).toMatchObject({ slug, title: changed.title });
    // The English words still find it for a German reader, shown in German.
    const byEnglish = await call(t, 'GET', `/api/help/articles?locale=de&q=${encodeURIComponent('payment stuck confirming')}`);
    expect((byEnglish.json.articles as Summary[])[0]).toMatchObject({ slug, title: changed.title });
    const es = await call(t, 'GET', `/api/help/articles/${slug}?locale=es`);
    expect(es.json).toEqual(english.json);
    expect((await call(t, 'GET', '/api/help/articles?locale=en')).json).toEqual(list.json);
    // Without a language, every answer is as it always was.
    expect((await call(t, 'GET', `/api/help/articles/${slug}`)).json).toEqual(english.json);
    expect((await call(t, 'GET', '/api/help/articles')).json).toEqual(list.json);
    expect((await call(t, 'GET', '/api/help/articles?locale=xx')).status).toBe(400);

    // Removed: German readers read the English again; removing twice is 404. Both changes are audited.
    expect((await call(t, 'DELETE', `${path}/de`, { token: support.token })).status).toBe(204);
    expect((await call(t, 'DELETE', `${path}/de`, { token: support.token })).status).toBe(404);
    expect((await call(t, 'GET', `/api/help/articles/${slug}?locale=de`)).json).toEqual(english.json);
    const audit = await t.database.db.execute<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE target_id = ${id} AND action LIKE 'help.translation%' ORDER BY created_at`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['help.translation_saved', 'help.translation_saved', 'help.translation_deleted']);
  });
});
