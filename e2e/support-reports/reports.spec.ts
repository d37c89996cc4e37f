import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { expect, registerUser, test } from '../support/fixtures.js';
import { staffToken } from '../support/seed.js';
import { staffPage } from '../support/staff-login.js';
import staff from '../support/staff-accounts.json' with { type: 'json' };

/** Staff console → Reports (decision 0295): figures for tickets made in this test, and the CSV. */

interface Report {
  tickets: number;
  resolved: number;
  byAssignee: Array<{ name: string | null; tickets: number; resolved: number }>;
}

const today = () => new Date().toISOString().slice(0, 10);
const eightWeeksAgo = () => new Date(Date.now() - 55 * 86_400_000).toISOString().slice(0, 10);

async function reportNow(request: APIRequestContext, auth: Record<string, string>): Promise<Report> {
  const res = await request.get(`/api/staff/support/report?from=${eightWeeksAgo()}&to=${today()}`, { headers: auth });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Report;
}

test('staff open Reports, see the tickets made here counted, and download the CSV', async ({ page, browser, consoleErrors }) => {
  const auth = { authorization: `Bearer ${await staffToken(page.request, 'support')}` };
  const before = await reportNow(page.request, auth);
  const mineBefore = before.byAssignee.find((a) => a.name === staff.support.username) ?? { tickets: 0, resolved: 0 };

  // A user asks twice; support takes one, answers it and resolves it.
  const user = await registerUser(page);
  const userAuth = { authorization: `Bearer ${user.token}` };
  const ids: string[] = [];
  for (const subject of ['Report test: deposit missing', 'Report test: cannot log in']) {
    const created = await page.request.post('/api/tickets', {
      data: { subject, message: 'Please help.', category: 'general' },
      headers: userAuth,
    });
    expect(created.status(), await created.text()).toBe(201);
    ids.push(((await created.json()) as { ticket: { _id: string } }).ticket._id);
  }
  const me = (await (await page.request.get('/api/auth/me', { headers: auth })).json()) as { user: { _id: string } };
  expect((await page.request.put(`/api/staff/tickets/${ids[0]}`, { data: { assigneeId: me.user._id }, headers: auth })).status()).toBe(200);
  expect(
    (
      await page.request.post(`/api/staff/tickets/${ids[0]}/messages`, { data: { message: 'Found it, credited.' }, headers: auth })
    ).status(),
  ).toBeLessThan(300);
  expect((await page.request.put(`/api/staff/tickets/${ids[0]}`, { data: { status: 'resolved' }, headers: auth })).status()).toBe(200);

  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff');
  await support.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Reports' }).click();
  await expect(support).toHaveURL(/\/dashboard\/staff\/reports$/);
  await expect(support.getByRole('heading', { name: 'Support reports' })).toBeVisible();
  // The form starts with the last 8 weeks up to today.
  await expect(support.getByLabel('From', { exact: true })).toHaveValue(eightWeeksAgo());
  await expect(support.getByLabel('To', { exact: true })).toHaveValue(today());

  const summary = support.getByLabel('Summary');
  const figure = (label: string) =>
    summary
      .locator('div')
      .filter({ has: support.locator('dt', { hasText: new RegExp(`^${label}$`) }) })
      .locator('.support-figure-value');
  await expect(figure('Tickets')).toHaveText(String(before.tickets + 2));
  await expect(figure('Resolved')).toHaveText(String(before.resolved + 1));
  const mine = support.getByRole('table', { name: 'By assignee' }).getByRole('row', { name: new RegExp(staff.support.username) });
  await expect(mine.locator('td').nth(0)).toHaveText(String(mineBefore.tickets + 1));
  await expect(mine.locator('td').nth(2)).toHaveText(String(mineBefore.resolved + 1));
  await expect(support.getByRole('img', { name: /Tickets opened and resolved per week/ })).toBeVisible();
  await expect(support.getByRole('table', { name: /Weekly/ })).toBeVisible();
  const { violations } = await new AxeBuilder({ page: support })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  // The CSV: the same total as the page.
  const [download] = await Promise.all([support.waitForEvent('download'), support.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe(`olympus-support-report-${eightWeeksAgo()}-to-${today()}.csv`);
  const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^section,key,tickets,resolved,/);
  expect(lines[1]).toMatch(new RegExp(`^total,${eightWeeksAgo()}\\.\\.${today()},${before.tickets + 2},${before.resolved + 1},`));
  expect(lines.some((l) => l.startsWith(`assignee,${staff.support.username},${mineBefore.tickets + 1},`))).toBe(true);

  // A plain user gets the staff area's refusal, not the report.
  await page.addInitScript((token) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('userType', 'user');
  }, user.token);
  await page.goto('/dashboard/staff/reports');
  await expect(page.getByText('This area is for the support team.')).toBeVisible();
  expect((await page.request.get(`/api/staff/support/report?from=${today()}&to=${today()}`, { headers: userAuth })).status()).toBe(403);
  expect(consoleErrors).toEqual([]);
});
