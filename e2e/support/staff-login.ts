import type { Browser, Page } from '@playwright/test';
import { expect, quietNotificationStream } from './fixtures.js';
import staff from './staff-accounts.json' with { type: 'json' };

export type StaffRole = keyof typeof staff;

/** Signs a staff member in through the login page, in a browser context of its own. */
export async function staffPage(browser: Browser, role: StaffRole): Promise<Page> {
  const context = await browser.newContext();
  await quietNotificationStream(context);
  const page = await context.newPage();
  const account = staff[role];
  await page.goto('/login');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByLabel("I'm not a robot").check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await skipOnboarding(page);
  return page;
}

/** Accounts new to the dashboard see onboarding first; staff tests skip it, as a person may. */
export async function skipOnboarding(page: Page): Promise<void> {
  const skip = page.getByRole('button', { name: 'Skip', exact: true });
  const dashboard = page.getByTestId('credit-balance');
  await expect(skip.or(dashboard)).toBeVisible();
  if (await skip.isVisible()) await skip.click();
  await expect(dashboard).toBeVisible();
}
