import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('the sign-in and registration forms have no WCAG A/AA violations, errors included', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/register');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Please complete the bot check')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the dashboard, onboarding and settings have no WCAG A/AA violations', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Welcome to Olympus' })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole('button', { name: 'Skip' }).click();
  await expect(page.getByTestId('credit-balance')).toHaveText('0.00');
  await expectNoAxeViolations(page);

  await page.goto('/dashboard/settings/security');
  await expect(page.getByRole('list', { name: 'Active sessions' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the sign-in form fits a phone screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/register');
  await expect(page.getByRole('button', { name: 'Create account' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
