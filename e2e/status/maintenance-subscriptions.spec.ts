import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import staff from '../support/staff-accounts.json' with { type: 'json' };
import { staffPage } from '../support/staff-login.js';

interface Mail {
  subject: string;
  text: string;
}

async function waitForMail(request: APIRequestContext, to: string, subject: string): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/sandbox/mail/messages?to=${encodeURIComponent(to)}`);
        found = ((await res.json()) as { messages: Mail[] }).messages.find((m) => m.subject === subject);
        return Boolean(found);
      },
      { timeout: 30_000, intervals: [250, 500, 1000] },
    )
    .toBe(true);
  return found!;
}

/** `YYYY-MM-DDTHH:MM` for a datetime-local field, in the browser's (UTC) zone. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);

test('staff schedule maintenance that shows on /status in advance', async ({ browser, page, consoleErrors }) => {
  const staffConsole = await staffPage(browser, 'support');
  await staffConsole.goto('/dashboard/staff/incidents');
  const title = `Database upgrade ${Date.now().toString(36)}`;
  const start = Date.now() + 24 * 3600_000;
  await staffConsole.getByLabel('Maintenance title').fill(title);
  await staffConsole.getByLabel('Description').fill('Top-ups pause for about an hour.');
  await staffConsole.getByLabel('Starts').fill(local(start));
  await staffConsole.getByLabel('Ends').fill(local(start + 3600_000));
  await staffConsole.getByRole('button', { name: 'Schedule maintenance' }).click();
  await expect(staffConsole.getByText('Maintenance scheduled')).toBeVisible();
  await expect(staffConsole.getByRole('list', { name: 'Upcoming maintenance' })).toContainText(title);

  await page.goto('/status');
  const section = page.getByRole('region', { name: 'Scheduled maintenance' });
  await expect(section.getByRole('heading', { name: title })).toBeVisible();
  await expect(section.getByText('Top-ups pause for about an hour.').first()).toBeVisible();

  // Staff cancel it (after confirming): it leaves the console's list and the status page.
  let asked = '';
  staffConsole.once('dialog', (dialog) => {
    asked = dialog.message();
    void dialog.accept();
  });
  await staffConsole.getByRole('button', { name: `Cancel ${title}` }).click();
  await expect(staffConsole.getByText('Maintenance cancelled')).toBeVisible();
  expect(asked).toContain(title);
  await expect(staffConsole.getByRole('button', { name: `Cancel ${title}` })).toHaveCount(0);
  await staffConsole.context().close();

  await page.reload();
  // Once the report has loaded (the components section is no longer busy), the window is not on the page.
  await expect(page.locator('section[aria-labelledby="components-title"]')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('heading', { name: title })).toHaveCount(0);
  const report = (await (await page.request.get('/api/status')).json()) as { maintenance: Array<{ title: string }> };
  expect(report.maintenance.map((m) => m.title)).not.toContain(title);
  expect(consoleErrors).toEqual([]);
});

test('a visitor subscribes, confirms from the mail and receives the incident notice; the feed lists the incident', async ({
  page,
  consoleErrors,
}) => {
  const email = `status-${Date.now().toString(36)}@example.com`;
  await page.goto('/status');
  await expect(page.locator('head link[rel="alternate"][type="application/atom+xml"]')).toHaveAttribute('href', '/api/status/feed.atom');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByText('Check your inbox: follow the link in the mail we sent to confirm the subscription.')).toBeVisible();

  const confirmation = await waitForMail(page.request, email, 'Confirm your Olympus status subscription');
  const link = /https?:\/\/\S+?(\/status\/confirm\?token=[A-Za-z0-9_.%-]+)/.exec(confirmation.text)![1]!;
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirm my subscription' }).click();
  await expect(page.getByText(/^Subscribed: you will get a mail/)).toBeVisible();

  // Staff post an incident; the subscriber is told.
  const login = await page.request.post('/api/login', {
    data: { username: staff.support.username, password: staff.support.password, turnstileToken: 'ok' },
  });
  const token = ((await login.json()) as { token: string }).token;
  const title = `Swaps delayed <${Date.now().toString(36)}> & more`;
  const posted = await page.request.post('/api/status/incidents', {
    headers: { authorization: `Bearer ${token}` },
    data: { title, impact: 'minor', components: ['swap-provider'], message: 'Looking into it.' },
  });
  expect(posted.status()).toBe(201);
  const notice = await waitForMail(page.request, email, `Incident: ${title}`);
  expect(notice.text).toContain('Looking into it.');
  expect(notice.text).toMatch(/\/status\/unsubscribe\?token=/);

  // The feed: Atom, well-formed (the browser's strict XML parser), with the incident, reachable from the page.
  await page.goto('/status');
  await expect(page.getByRole('link', { name: 'Atom feed of incidents and maintenance' })).toHaveAttribute('href', '/api/status/feed.atom');
  const feed = await page.request.get('/api/status/feed.atom');
  expect(feed.headers()['content-type']).toBe('application/atom+xml; charset=utf-8');
  const xml = await feed.text();
  const parsed = await page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length > 0) return null;
    return {
      namespace: doc.documentElement.namespaceURI,
      titles: [...doc.getElementsByTagName('entry')].map((e) => e.getElementsByTagName('title')[0]?.textContent),
    };
  }, xml);
  expect(parsed?.namespace).toBe('http://www.w3.org/2005/Atom');
  expect(parsed?.titles).toContain(`Incident: ${title}`);
  expect(consoleErrors).toEqual([]);
});
