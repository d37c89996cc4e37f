import { expect, signIn, test } from '../support/fixtures.js';

/**
 * Settings in sections (docs/decisions/0320-settings-in-sections.md): each section has its own address,
 * chosen from a side navigation (one menu on a phone); Back works; the older one-page links
 * (`/dashboard/settings#webhooks`, sent in mails) open the section that holds the part.
 */
const SECTIONS = [
  ['account', 'Account', 'Email address'],
  ['security', 'Security', 'Active sessions'],
  ['notifications', 'Notifications', 'Notifications'],
  ['connections', 'Connections', 'Connected accounts'],
  ['developers', 'Developers', 'Webhooks'],
  ['privacy', 'Privacy', 'Privacy'],
] as const;

test('each settings section has its own address, side navigation and Back; older #part links land on their section', async ({
  page,
  consoleErrors,
}) => {
  test.setTimeout(90_000);
  await signIn(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/dashboard/settings');
  await expect(page).toHaveURL(/\/dashboard\/settings\/account$/);
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  for (const [slug, title, part] of SECTIONS) {
    await nav.getByRole('link', { name: title, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/settings/${slug}$`));
    await expect(nav.getByRole('link', { name: title, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).locator('[aria-current="page"]')).toHaveText(title);
    await expect(page.getByRole('heading', { name: part, exact: true }).first()).toBeVisible();
    await expect(page.getByRole('menu')).toHaveCount(0);
  }
  await page.screenshot({ path: 'test-results/settings-privacy-1280.png', fullPage: true });
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard\/settings\/developers$/);
  await expect(page.getByRole('heading', { name: 'Webhooks', exact: true }).first()).toBeVisible();

  // Links sent before the sections had addresses.
  for (const [old, section] of [
    ['#webhooks', 'developers'],
    ['#sessions', 'security'],
    ['#notifications', 'notifications'],
    ['#privacy', 'privacy'],
  ] as const) {
    await page.goto(`/dashboard/settings${old}`);
    await expect(page).toHaveURL(new RegExp(`/dashboard/settings/${section}${old}$`));
  }
  await page.goto('/dashboard/settings/no-such-section');
  await expect(page).toHaveURL(/\/dashboard\/settings\/account$/);

  // A phone: one menu instead of the side navigation.
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(nav).toBeHidden();
  const menu = page.getByRole('combobox', { name: 'Settings section' });
  await expect(menu).toHaveValue('/dashboard/settings/account');
  await menu.selectOption({ label: 'Security' });
  await expect(page).toHaveURL(/\/dashboard\/settings\/security$/);
  await expect(page.getByRole('heading', { name: 'Active sessions' })).toBeVisible();
  await page.screenshot({ path: 'test-results/settings-security-375.png', fullPage: true });
  expect(consoleErrors).toEqual([]);
});
