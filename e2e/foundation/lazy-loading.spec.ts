import type { Page, Route } from '@playwright/test';
import { crashHeading, expect, expectPageRendered, test, settled } from '../support/fixtures.js';

/** Records the URL of every script the page fetches, from now on. */
function recordScripts(page: Page): Set<string> {
  const urls = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') urls.add(new URL(response.url()).pathname);
  });
  return urls;
}

const mainNav = (page: Page) => page.getByRole('banner').getByRole('navigation');

test('opening /jobs loads a JavaScript chunk that / did not load', async ({ page, consoleErrors }) => {
  const scripts = recordScripts(page);
  await page.goto('/');
  await expectPageRendered(page);
  await settled(page);
  const forHome = new Set(scripts);
  expect(forHome.size).toBeGreaterThan(0);

  await mainNav(page).getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expectPageRendered(page);
  // The browser's response events reach the test after the page has used them: wait for them.
  const newChunks = () => [...scripts].filter((url) => !forHome.has(url));
  await expect.poll(() => newChunks().length, { message: 'a chunk / did not load' }).toBeGreaterThan(0);
  for (const url of newChunks()) expect(url).toMatch(/^\/assets\/.+\.js$/);
  expect(consoleErrors).toEqual([]);
});

test('the home page loads the exchange panel only when the visitor comes near it', async ({ page, consoleErrors }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const scripts = recordScripts(page);
  await page.goto('/');
  await expectPageRendered(page);
  await settled(page);
  const panelChunk = () => [...scripts].filter((url) => /\/exchange-panel-[^/]+\.js$/.test(url));
  expect(panelChunk()).toEqual([]);
  await expect(page.locator('section#exchange')).toContainText('Loading the exchange…');

  await page.locator('section#exchange').scrollIntoViewIfNeeded();
  await expect(page.locator('section#exchange').getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeVisible();
  expect(panelChunk()).toHaveLength(1);
  expect(consoleErrors).toEqual([]);
});

test('a link to /#exchange opens the home page at the exchange panel', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#exchange');
  await expect(page.locator('section#exchange').getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeInViewport();
});

test('"See how swaps work" opens the exchange panel', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.getByRole('main').getByRole('link', { name: 'See how swaps work' }).click();
  await expect(page.locator('section#exchange').getByRole('heading', { name: 'Swap crypto and earn rewards' })).toBeInViewport();
});

test('a page whose code fails to load shows "Something went wrong", and Reload Page recovers', async ({ page }) => {
  const scripts = recordScripts(page);
  await page.goto('/');
  await expectPageRendered(page);
  await settled(page);
  const forHome = new Set(scripts);

  // From now on every script the home page did not need fails, as during a deploy or a network drop.
  const failNewChunks = (route: Route) => (forHome.has(new URL(route.request().url()).pathname) ? route.continue() : route.abort('failed'));
  await page.route('**/assets/*.js', failNewChunks);

  await page.getByRole('banner').getByRole('navigation').getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(crashHeading(page)).toBeVisible();
  const reload = page.getByRole('button', { name: 'Reload Page' });
  await expect(reload).toBeVisible();

  await page.unroute('**/assets/*.js', failNewChunks);
  await reload.click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expectPageRendered(page);
  await expect(crashHeading(page)).toHaveCount(0);
});

test('a page that throws while starting shows "Something went wrong" on a direct visit, and Reload Page recovers', async ({ page }) => {
  // The jobs page's code is a chunk of its own, named after its module (the build keeps the name). Telling
  // it from the home page's by what each load fetched raced the browser's late response events: a chunk
  // the home page fetched late counted as the jobs page's, and the crash never happened.
  const JOBS_CHUNK = /\/assets\/jobs-page-[^/]+\.js$/;
  const scripts = recordScripts(page);
  await page.goto('/jobs');
  await expectPageRendered(page);
  await expect
    .poll(() => [...scripts].filter((url) => JOBS_CHUNK.test(url)).length, { message: 'the jobs page has a chunk of its own' })
    .toBe(1);

  // The jobs page's own code now throws as soon as it runs: a real crash inside the page.
  const crash = (route: Route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: 'throw new Error("simulated crash in the jobs page");' });
  await page.route(JOBS_CHUNK, crash);

  await page.goto('/jobs');
  await expect(crashHeading(page)).toBeVisible();
  // The rest of the site is still reachable from the crash screen.
  await expect(page.getByRole('link', { name: /home/i }).first()).toBeVisible();

  await page.unroute(JOBS_CHUNK, crash);
  await page.getByRole('button', { name: 'Reload Page' }).click();
  await expectPageRendered(page);
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(crashHeading(page)).toHaveCount(0);
});
