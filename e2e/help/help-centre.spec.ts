import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';
import { staffPage } from '../support/staff-login.js';
import { sidewaysScroll } from '../a11y/routes.js';

/** The help centre (decision 0290) and the requester beside a ticket (decision 0291), in Chromium. */

async function expectNoSeriousAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a visitor searches the help centre, reads an article and says it helped', async ({ page, consoleErrors }) => {
  await page.goto('/help');
  await expect(page.getByRole('heading', { level: 1, name: 'How can we help?' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Articles' }).getByRole('listitem')).not.toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  // Typing searches (the search goes into the address) and the best answer comes first.
  await page.getByLabel('Search the help centre').fill('payment stuck confirming');
  await expect(page).toHaveURL(/\/help\?q=payment\+stuck\+confirming/);
  const results = page.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('listitem').first()).toContainText('stuck in "confirming"');

  // Nothing matches: a sentence and the way to support, not an empty page.
  await page.getByLabel('Search the help centre').fill('zebra xylophone');
  await expect(page.getByText('No article matches “zebra xylophone”.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask our support team' })).toBeVisible();

  // A category filter.
  await page.getByLabel('Search the help centre').fill('');
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: 'Rewards' }).click();
  await expect(page.getByRole('list', { name: 'Articles' }).getByRole('listitem')).toHaveCount(1);

  await page.getByRole('link', { name: 'How reward credits are claimed' }).click();
  await expect(page).toHaveURL(/\/help\/claiming-rewards$/);
  await expect(page.getByRole('heading', { level: 1, name: 'How reward credits are claimed' })).toBeVisible();
  await expect(page.getByRole('main').getByText('claim code', { exact: false }).first()).toBeVisible();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(page.getByText('Thanks! Glad it helped.')).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // An address with no article says so.
  await page.goto('/help/no-such-article');
  await expect(page.getByText('There is no article at this address')).toBeVisible();
  expect(consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
});

test('staff write and publish an article; it is suggested while a user writes a ticket; the desk shows the requester', async ({
  page,
  browser,
}) => {
  const tag = Date.now().toString(36);
  const support = await staffPage(browser, 'support');
  await support.goto('/dashboard/staff/help');
  await expect(support.getByRole('heading', { name: 'Help centre' })).toBeVisible();
  await support.getByLabel('Title').fill(`Withdrawing credits ${tag}`);
  await expect(support.getByLabel('Address')).toHaveValue(`withdrawing-credits-${tag}`);
  await support.getByLabel('Category').fill('Payments');
  await support.getByLabel('Article (Markdown)').fill(`Credits **cannot** be withdrawn ${tag}. <script>alert(1)</script>`);
  await support.getByRole('button', { name: 'Preview' }).click();
  const preview = support.getByRole('region', { name: 'Preview' });
  await expect(preview.locator('strong')).toHaveText('cannot');
  await expect(preview).toContainText('<script>alert(1)</script>');
  await support.getByLabel('Status').selectOption('published');
  await support.getByRole('button', { name: 'Save article' }).click();
  await expect(support.getByText(`“Withdrawing credits ${tag}” is published`)).toBeVisible();
  await expect(
    support.getByRole('table', { name: 'Help articles' }).getByRole('row', { name: new RegExp(`Withdrawing credits ${tag}`) }),
  ).toContainText('Published');
  await expectNoSeriousAxeViolations(support);

  // A user starts a ticket about it: the article is suggested, and opens in a new tab.
  await signIn(page);
  await page.goto('/dashboard/support');
  await page.getByRole('button', { name: 'New ticket' }).click();
  await page.getByLabel('Subject').fill(`withdrawing credits ${tag}`);
  const suggestions = page.getByRole('region', { name: 'These articles may answer your question' });
  const link = suggestions.getByRole('link', { name: new RegExp(`Withdrawing credits ${tag}`) });
  await expect(link).toBeVisible();
  const [tab] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
  await expect(tab.getByRole('heading', { level: 1, name: `Withdrawing credits ${tag}` })).toBeVisible();
  await tab.close();
  // The ticket being written is still there.
  await expect(page.getByLabel('Subject')).toHaveValue(`withdrawing credits ${tag}`);
  await page.getByLabel('How can we help?').fill('So how do I get my money back?');
  await page.getByRole('button', { name: 'Create ticket' }).click();
  await expect(page.getByText(/Ticket #\d+ created/)).toBeVisible();

  // The desk: beside the ticket, who asks and their balance.
  await support.goto('/dashboard/staff/tickets');
  await support.getByRole('searchbox').fill(`withdrawing credits ${tag}`);
  await support.getByRole('link', { name: new RegExp(`withdrawing credits ${tag}`) }).click();
  const requester = support.getByRole('complementary', { name: 'Requester' });
  await expect(requester.getByText('Balance')).toBeVisible();
  await expect(requester.getByText('0.00 credits')).toBeVisible();
  await expect(requester.getByText('Not verified')).toBeVisible();
  await expectNoSeriousAxeViolations(support);

  for (const width of [375, 1280]) {
    await support.setViewportSize({ width, height: 900 });
    // The header and console nav re-render for the new width a frame or two after the resize: wait for it.
    await expect
      .poll(
        async () => {
          const { overflow, sticking } = await sidewaysScroll(support);
          return overflow > 0 ? `${overflow} px too wide: ${sticking}` : 'fits';
        },
        { message: `no sideways scroll at ${width} px` },
      )
      .toBe('fits');
  }
});
