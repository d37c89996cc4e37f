import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { registerPastOnboarding, staffToken } from '../support/seed.js';
import { staffPage } from '../support/staff-login.js';

/**
 * SLA targets in business hours (decision 0293, docs/support-sla.md), in Chromium: an admin sets the
 * calendar and a one-minute target in the console; a ticket past it shows "Breached" in the queue.
 */

const DEFAULT_TARGETS = [
  { priority: 'urgent', firstResponseMinutes: 60, resolutionMinutes: 480 },
  { priority: 'high', firstResponseMinutes: 240, resolutionMinutes: 960 },
  { priority: 'normal', firstResponseMinutes: 480, resolutionMinutes: 2400 },
  { priority: 'low', firstResponseMinutes: 960, resolutionMinutes: 4800 },
];

/** Puts back what a new installation has, so the other specs see the usual queue. */
async function restoreDefaults(request: APIRequestContext) {
  const auth = { authorization: `Bearer ${await staffToken(request, 'admin')}` };
  await request.put('/api/staff/support/sla/calendar', {
    data: { timeZone: 'UTC', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' },
    headers: auth,
  });
  await request.put('/api/staff/support/sla/targets', { data: { targets: DEFAULT_TARGETS }, headers: auth });
}

test.afterAll(async ({ request }) => {
  await restoreDefaults(request);
});

test('an admin sets business hours and a one-minute target; a ticket past it shows Breached in the queue', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const admin = await staffPage(browser, 'admin');
  await admin.goto('/dashboard/staff/sla');
  await expect(admin.getByRole('heading', { name: 'Business hours & SLA' })).toBeVisible();

  // Every day, all day, so the test does not depend on when it runs.
  await admin.getByLabel('Time zone').fill('Mars/Olympus');
  await admin.getByRole('button', { name: 'Save working hours' }).click();
  await expect(admin.getByText(/Unknown time zone/)).toBeVisible();
  await admin.getByLabel('Time zone').fill('UTC');
  for (const day of ['Saturday', 'Sunday']) await admin.getByLabel(day).check();
  await admin.getByLabel('Day starts').fill('00:00');
  await admin.getByLabel('Day ends').fill('23:59');
  await admin.getByRole('button', { name: 'Save working hours' }).click();
  await expect(admin.getByText('Business hours saved')).toBeVisible();

  // A holiday far away is listed, then removed.
  await admin.getByLabel('Date').fill('2099-12-25');
  await admin.getByLabel('Holiday name').fill('Christmas 2099');
  await admin.getByRole('button', { name: 'Add holiday' }).click();
  const holidays = admin.getByRole('table', { name: 'Holidays' });
  await expect(holidays).toContainText('Christmas 2099');
  await holidays.getByRole('button', { name: 'Remove Christmas 2099' }).click();
  await expect(admin.getByText('No holidays.')).toBeVisible();

  // Urgent tickets: first response within one business minute.
  await admin.getByLabel('Urgent: first response in business hours').fill('0.02');
  await admin.getByRole('button', { name: 'Save targets' }).click();
  await expect(admin.getByText('Targets saved')).toBeVisible();

  const subject = `SLA breach ${Date.now().toString(36)}`;
  const user = await registerPastOnboarding(request, 'sla');
  const created = await request.post('/api/tickets', {
    data: { subject, message: 'Nobody answers.', category: 'general', priority: 'urgent' },
    headers: user.auth,
  });
  expect(created.status()).toBe(201);

  await admin.goto('/dashboard/staff/tickets');
  await admin.getByRole('searchbox').fill(subject);
  const row = admin.getByRole('link', { name: new RegExp(subject) });
  await expect(row).toContainText(/Response target: (\d+ m left|Breached)/);
  // The queue polls every 15 s; the minute passes and the badge turns.
  await expect(row).toContainText(/Response target: Breached/, { timeout: 120_000 });
  await expect(row.locator('.sla-breached')).toBeVisible();
  await admin.getByLabel('SLA').selectOption('breached');
  await expect(admin.getByRole('link', { name: new RegExp(subject) })).toBeVisible();
});
