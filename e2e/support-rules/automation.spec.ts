import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';
import { sidewaysScroll } from '../a11y/routes.js';

/** Support automation (docs/support-rules.md): an admin writes a rule, a user's ticket meets it, staff see its effect. */

async function expectNoSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shoot(page: Page, name: string) {
  if (!process.env.SCREENSHOT_DIR) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${name}-${width}.png`, fullPage: true });
  }
}

test('an admin creates "ticket created, subject contains refund → tag, high priority, note"; staff see it on a user\'s ticket', async ({
  page,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const name = `Refunds ${tag}`;
  const admin = await staffPage(browser, 'admin');
  admin.on('dialog', (d) => void d.accept());
  await admin.goto('/dashboard/staff/automation');
  await expect(admin.getByRole('heading', { name: 'Automation', level: 2 })).toBeVisible();
  await expect(admin.getByLabel('Close resolved tickets after (days)')).toHaveValue(/\d+/);

  await admin.getByRole('button', { name: 'New rule' }).click();
  const form = admin.getByRole('form', { name: 'New rule' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Trigger').selectOption('ticket_created');
  await form.getByRole('button', { name: 'Add condition' }).click();
  await form.getByLabel('Text').fill('refund');
  await form.getByRole('button', { name: 'Add action' }).click();
  await form.getByLabel('Tag').fill('refund');
  await form.getByRole('button', { name: 'Add action' }).click();
  await form.getByLabel('Action 2', { exact: true }).selectOption('set_priority');
  await form.getByLabel('Priority').selectOption('high');
  await form.getByRole('button', { name: 'Add action' }).click();
  await form.getByLabel('Action 3', { exact: true }).selectOption('internal_note');
  await form.getByLabel('Note').fill(`Refund request ${tag}: check the order first.`);
  await shoot(admin, 'automation-form');
  await expectNoSeriousAxeViolations(admin);
  await form.getByRole('button', { name: 'Create rule' }).click();
  const card = admin.getByRole('list', { name: 'Rules' }).getByRole('listitem').filter({ hasText: name });
  await expect(card).toContainText('subject contains "refund"');
  await expect(card).toContainText('tag refund → priority high → internal note');
  await expect(card.getByRole('switch', { name: `${name} enabled` })).toBeChecked();

  // A user opens a ticket about a refund.
  await signIn(page);
  await page.goto('/dashboard/support');
  await page.getByRole('button', { name: 'New ticket' }).click();
  await page.getByLabel('Subject').fill(`Please refund my order ${tag}`);
  await page.getByLabel('How can we help?').fill('I was charged twice.');
  await page.getByRole('button', { name: 'Create ticket' }).click();
  await expect(page.getByText(/Ticket #\d+ created/)).toBeVisible();

  // Support see the tag and the priority in the queue, and the note on the ticket.
  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff/tickets');
  await support.getByRole('searchbox').fill(tag);
  const row = support.getByRole('link', { name: new RegExp(`Please refund my order ${tag}`) });
  await expect(async () => {
    await support.reload();
    await support.getByRole('searchbox').fill(tag);
    await expect(row).toContainText('refund', { timeout: 2_000 });
    await expect(row).toContainText('High', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await shoot(support, 'staff-queue-tags');
  await row.click();
  await expect(support.getByText(`Refund request ${tag}: check the order first.`)).toBeVisible();
  await expect(support.locator('.ticket-tags').getByText('refund', { exact: true })).toBeVisible();
  await shoot(support, 'staff-ticket-tags');
  await expectNoSeriousAxeViolations(support);

  // The run log names the rule; then the admin deletes it (other tests' tickets stay untouched).
  await admin.reload();
  await expect(admin.getByRole('table', { name: 'Rule runs' })).toContainText(name);
  await shoot(admin, 'automation');
  for (const width of [375, 1280]) {
    await admin.setViewportSize({ width, height: 900 });
    // The header and console nav re-render for the new width a frame or two after the resize: wait for it.
    await expect
      .poll(
        async () => {
          const { overflow, sticking } = await sidewaysScroll(admin);
          return overflow > 0 ? `${overflow} px too wide: ${sticking}` : 'fits';
        },
        { message: `no sideways scroll at ${width} px` },
      )
      .toBe('fits');
  }
  await admin.getByRole('button', { name: `Delete ${name}` }).click();
  await expect(admin.getByRole('list', { name: 'Rules' }).getByText(name)).toHaveCount(0);
});
