import type { Locator, Page } from '@playwright/test';
import { expect, expectPageRendered, quietNotificationStream, test } from '../support/fixtures.js';
import { staffToken } from '../support/seed.js';

/**
 * The narrowest phone we support (360 px) with the longest username the register form accepts
 * (32 characters, no spaces, so nothing breaks it by itself): no page scrolls sideways, the name
 * stays readable, and every header control can be reached.
 */
test.use({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

const WIDTH = 360;

async function expectNoHorizontalScroll(page: Page, where: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(innerWidth, `${where}: viewport`).toBe(WIDTH);
  expect(scrollWidth, `${where}: document.documentElement.scrollWidth`).toBeLessThanOrEqual(innerWidth);
}

/** Wholly on screen horizontally, visible, and the thing at its centre is the element itself. */
async function expectReachable(control: Locator, name: string): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  await expect(control, name).toBeVisible();
  const box = (await control.boundingBox())!;
  expect(box.x, `${name}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${name}: right edge`).toBeLessThanOrEqual(WIDTH);
  // Nothing else covers it: a tap lands on it.
  await control.click({ trial: true });
}

/** A 32-character username (the maximum), unique per run. */
function longUsername(): string {
  const unique = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return `${unique}_${'w'.repeat(32)}`.slice(0, 32);
}

async function signInLongName(page: Page): Promise<string> {
  const username = longUsername();
  expect(username).toHaveLength(32);
  const res = await page.request.post('/api/register', {
    data: { username, email: `${username}@example.com`, password: 'correct horse battery staple', turnstileToken: 'ok' },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { token } = (await res.json()) as { token: string };
  // Past onboarding, so the dashboard shows its header.
  const onboarding = await page.request.put('/api/onboarding', {
    data: { completed: true },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(onboarding.status()).toBe(200);
  await page.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
  return username;
}

test('the dashboard fits 360 px with a 32-character username, which stays readable', async ({ page, consoleErrors }) => {
  const username = await signInLongName(page);
  await page.goto('/dashboard');
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  await expect(heading).toContainText('Welcome');
  await expect(page.getByTestId('credit-balance')).toBeVisible();
  await expectNoHorizontalScroll(page, 'dashboard');

  // The whole name can be read: either shown in full (wrapped), or cut with an ellipsis and given in
  // full to a title and to assistive technology.
  for (const el of [heading, page.getByTestId('dashboard-username')]) {
    const shown = await el.evaluate((node) => {
      const fits = node.scrollWidth <= node.clientWidth + 1;
      const r = node.getBoundingClientRect();
      return { fits, right: r.right, left: r.left, text: node.textContent ?? '', title: node.getAttribute('title') };
    });
    expect(shown.text).toContain(username);
    expect(shown.left).toBeGreaterThanOrEqual(0);
    expect(shown.right).toBeLessThanOrEqual(WIDTH);
    if (!shown.fits) expect(shown.title ?? '').toContain(username);
  }
  await expect(heading).toHaveAccessibleName(`Welcome, ${username}`);

  // Every control of the dashboard header, and the one menu of the dashboard's pages (no side navigation on a phone).
  const main = page.getByRole('main');
  await expectReachable(main.getByRole('combobox', { name: 'Dashboard page' }), 'page menu');
  await expect(main.getByRole('navigation', { name: 'Dashboard', exact: true })).toBeHidden();
  await expectReachable(main.getByRole('button', { name: 'Sign out' }), 'Sign out');

  // And of the site header, through the phone menu.
  const banner = page.getByRole('banner');
  await expectReachable(banner.getByRole('link', { name: 'Olympus' }), 'brand');
  const toggle = banner.getByRole('button', { name: /menu/i });
  await expectReachable(toggle, 'Menu');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expectReachable(banner.getByRole('link', { name: 'Dashboard', exact: true }), 'header Dashboard');
  await expectReachable(banner.getByRole('link', { name: 'Status', exact: true }), 'header Status');
  await expectNoHorizontalScroll(page, 'dashboard, menu open');
  expect(consoleErrors).toEqual([]);
});

test('the home page and /status fit 360 px, signed in with a long username and signed out', async ({ page, browser, consoleErrors }) => {
  await signInLongName(page);
  for (const path of ['/', '/status']) {
    await page.goto(path);
    await expectPageRendered(page);
    await expectNoHorizontalScroll(page, `${path} signed in`);
    const toggle = page.getByRole('banner').getByRole('button', { name: /menu/i });
    await expectReachable(toggle, `${path}: Menu`);
    await toggle.click();
    await expectReachable(page.getByRole('banner').getByRole('link', { name: 'Dashboard', exact: true }), `${path}: Dashboard`);
    await expectNoHorizontalScroll(page, `${path} signed in, menu open`);
  }
  if (await page.getByRole('main').getByRole('textbox', { name: /email/i }).count()) {
    await expectReachable(page.getByRole('main').getByRole('textbox', { name: /email/i }).first(), '/status: subscribe email');
  }
  expect(consoleErrors).toEqual([]);

  const context = await browser.newContext({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });
  await quietNotificationStream(context);
  const guest = await context.newPage();
  for (const path of ['/', '/status']) {
    await guest.goto(path);
    await expectPageRendered(guest);
    await expectNoHorizontalScroll(guest, `${path} signed out`);
  }
  await context.close();
});

test("staff open that user's page at 360 px: the name heads it, wrapped, and nothing scrolls sideways", async ({ page, consoleErrors }) => {
  const username = await signInLongName(page);
  const login = await page.request.post('/api/login', {
    data: { username, password: 'correct horse battery staple', turnstileToken: 'ok' },
  });
  expect(login.status()).toBe(200);
  const { token: userToken } = (await login.json()) as { token: string };
  const me = await page.request.get('/api/auth/me', { headers: { authorization: `Bearer ${userToken}` } });
  const { user } = (await me.json()) as { user: { _id: string } };

  const staff = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: WIDTH, height: 740 }, isMobile: true, hasTouch: true });
  await quietNotificationStream(staff);
  const token = await staffToken(staff.request, 'admin');
  await staff.addInitScript((t) => {
    window.localStorage.setItem('token', t);
    window.localStorage.setItem('userType', 'user');
  }, token);
  const desk = await staff.newPage();
  await desk.goto(`/dashboard/staff/users/${user._id}`);
  const heading = desk.getByRole('main').getByRole('heading', { name: username });
  await expect(heading).toBeVisible();
  await expect(desk.getByRole('table', { name: 'Active sessions' })).toBeVisible();
  await expectNoHorizontalScroll(desk, 'staff user page');
  const box = (await heading.boundingBox())!;
  expect(box.x + box.width, 'the heading ends on screen').toBeLessThanOrEqual(WIDTH);
  await staff.close();
  expect(consoleErrors).toEqual([]);
});
