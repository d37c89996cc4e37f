import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';

/** The support desk of decision 0190 in the browser: staff tools, merging, rating and attachments. */

// A real 1x1 PNG, and an SVG that claims to be one.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const DISGUISED_SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');

async function openTicket(page: Page, token: string, subject: string, message: string): Promise<{ id: string; number: number }> {
  const res = await page.request.post('/api/tickets', {
    headers: { authorization: `Bearer ${token}` },
    data: { subject, message, category: 'payments' },
  });
  expect(res.status()).toBe(201);
  const { ticket } = (await res.json()) as { ticket: { _id: string; number: number } };
  return { id: ticket._id, number: ticket.number };
}

async function openQueue(support: Page, search: string) {
  await support.getByRole('link', { name: 'Staff console' }).click();
  await support.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Tickets' }).click();
  await support.getByRole('searchbox').fill(search);
}

test('staff note, canned reply, assignment and merge; the user attaches a PNG, staff download it; the user rates the answer', async ({
  page,
  browser,
  consoleErrors,
}) => {
  // A long path through two sessions (user and staff); a busy two-core machine needs more than the default.
  test.setTimeout(180_000);
  const tag = Date.now().toString(36);
  const account = await signIn(page);
  const first = await openTicket(page, account.token, `Card charged twice ${tag}`, 'I was charged twice for one deposit.');
  const duplicate = await openTicket(page, account.token, `Charged twice again ${tag}`, 'Same problem, writing again.');

  // The user attaches a screenshot; a disguised SVG is refused with a clear message.
  await page.goto('/dashboard/support');
  await page.getByRole('link', { name: new RegExp(`Card charged twice ${tag}`) }).click();
  const thread = page.getByRole('list', { name: 'Messages' });
  await page.getByLabel(/Attach a file/).setInputFiles({ name: 'cat.png', mimeType: 'image/png', buffer: DISGUISED_SVG });
  await expect(page.getByRole('alert').filter({ hasText: 'HTML, SVG and other markup files are not accepted' })).toBeVisible();
  await expect(thread.getByRole('button', { name: 'Download cat.png' })).toHaveCount(0);
  await page.getByLabel(/Attach a file/).setInputFiles({ name: 'statement.png', mimeType: 'image/png', buffer: PNG });
  await expect(thread.getByRole('button', { name: 'Download statement.png' })).toBeVisible();

  // Support: a canned reply, an internal note, an assignment, a merge, and the download.
  const support = await staffPage(browser, 'support');
  await openQueue(support, `Card charged twice ${tag}`);
  const row = support.getByRole('link', { name: new RegExp(`Card charged twice ${tag}`) });
  await expect(row.getByText(/waiting \d+m/)).toBeVisible();
  await expect(row.getByText('Unassigned')).toBeVisible();

  await support.getByText(/Canned replies \(\d+\)/).click();
  const cannedTitle = `Double charge ${tag}`;
  await support.getByLabel('Title').fill(cannedTitle);
  await support.getByLabel('Text', { exact: true }).fill('Double charges are refunded automatically within 24 hours.');
  await support.getByRole('button', { name: 'Add canned reply' }).click();
  await expect(support.getByRole('list', { name: 'Canned replies' }).getByText(cannedTitle)).toBeVisible();

  await row.click();
  const staffThread = support.getByRole('list', { name: 'Messages' });
  await support.getByLabel(/Internal note \(the requester never sees it\)/).check();
  await support.getByLabel('Internal note', { exact: true }).fill(`Checked the provider ${tag}: one charge is pending reversal.`);
  await support.getByRole('button', { name: 'Add note' }).click();
  await expect(staffThread.getByText(`Checked the provider ${tag}`, { exact: false })).toBeVisible();

  await support.getByLabel('Insert canned reply').selectOption({ label: cannedTitle });
  await expect(support.getByLabel('Your reply')).toHaveValue('Double charges are refunded automatically within 24 hours.');
  await support.getByRole('button', { name: 'Send reply' }).click();
  await expect(staffThread.getByText('Double charges are refunded automatically', { exact: false })).toBeVisible();

  await support.getByLabel('Assignee').selectOption({ label: 'e2e_admin' });
  await expect(support.getByText(/assigned to e2e_admin/)).toBeVisible();

  await support.getByLabel('Number of the duplicate ticket to merge into this one').fill(String(duplicate.number));
  await support.getByRole('button', { name: 'Merge into this ticket' }).click();
  await expect(staffThread.getByText(`Ticket #${duplicate.number} was merged into this ticket.`)).toBeVisible();
  await expect(staffThread.getByText('Same problem, writing again.')).toBeVisible();

  const downloading = support.waitForEvent('download');
  await staffThread.getByRole('button', { name: 'Download statement.png' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('statement.png');
  expect((await readFile((await download.path())!)).equals(PNG)).toBe(true);

  // The user sees the answer and the merged message, never the internal note.
  await expect(thread.getByText('Double charges are refunded automatically', { exact: false })).toBeVisible({ timeout: 15_000 });
  await expect(thread.getByText('Same problem, writing again.')).toBeVisible();
  await expect(page.getByText(`Checked the provider ${tag}`, { exact: false })).toHaveCount(0);

  // The duplicate tells the user where it went.
  await page.getByRole('button', { name: '← All tickets' }).click();
  await page.getByRole('link', { name: new RegExp(`Charged twice again ${tag}`) }).click();
  await expect(page.getByText(`This ticket was merged into #${first.number}.`)).toBeVisible();
  await page.getByRole('button', { name: '← All tickets' }).click();

  // The user closes the ticket and rates it; the rating is final.
  await page.getByRole('link', { name: new RegExp(`Card charged twice ${tag}`) }).click();
  await page.getByRole('button', { name: 'Close ticket' }).click();
  const rating = page.getByRole('form', { name: 'Rate the answer' });
  await rating.getByLabel('4').check();
  await rating.getByLabel('Comment (optional)').fill('Clear and quick.');
  await rating.getByRole('button', { name: 'Send rating' }).click();
  await expect(page.getByText('You rated this answer 4 of 5: “Clear and quick.”', { exact: false })).toBeVisible();

  // Staff see the average, overall and for the assignee.
  await support.getByRole('button', { name: '← Back to queue' }).click();
  await support.reload();
  await expect(support.getByText(/Average rating: \d\.\d\d \/ 5/)).toBeVisible();
  await expect(support.getByRole('list', { name: 'Average rating per staff member' }).getByText(/e2e_admin: \d\.\d\d/)).toBeVisible();
  await support.context().close();
  expect(consoleErrors).toEqual([]);
});

test('a disguised SVG is refused by the API and never served', async ({ page }) => {
  const account = await signIn(page);
  const { id } = await openTicket(page, account.token, 'Upload check', 'Checking uploads.');
  const res = await page.request.post(`/api/tickets/${id}/attachments?filename=cat.png`, {
    headers: { authorization: `Bearer ${account.token}`, 'content-type': 'image/png' },
    data: DISGUISED_SVG,
  });
  expect(res.status()).toBe(415);
  expect(((await res.json()) as { code: string }).code).toBe('ATTACHMENT_MARKUP_REFUSED');
  const ticket = (await (
    await page.request.get(`/api/tickets/${id}`, { headers: { authorization: `Bearer ${account.token}` } })
  ).json()) as {
    ticket: { messages: Array<{ attachments: unknown[] }> };
  };
  expect(ticket.ticket.messages.flatMap((m) => m.attachments)).toEqual([]);
});
