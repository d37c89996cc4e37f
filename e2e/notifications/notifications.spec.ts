import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures';

// The bell's live count is what these tests are about: keep the server-sent events stream.
test.use({ liveNotifications: true });

/**
 * The notification centre (decisions 0260–0263): the bell's count goes up live, without a reload, when
 * a sandbox payment finishes; the panel and /notifications list the notice with a link to the payment;
 * mark all read; and the preferences matrix in settings.
 */
async function seriousViolations(page: Page, include: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).include(include).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const width of [1280, 375]) {
  test(`a finished payment rings the bell live; panel, page and matrix (${width} px)`, async ({ page, consoleErrors }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const { token } = await signIn(page);
    const auth = { authorization: `Bearer ${token}` };
    expect((await page.request.put('/api/onboarding', { data: { completed: true }, headers: auth })).status()).toBe(200);

    await page.goto('/dashboard');
    const bell = page.getByTestId('notification-bell');
    await expect(bell).toHaveAccessibleName('Notifications');
    await expect(page.getByTestId('notification-count')).toHaveCount(0);

    // The payment finishes at the provider while the page stays open: the count appears without a reload.
    const created = await page.request.post('/api/payments/deposit', { data: { crypto: 'btc', amount: 100 }, headers: auth });
    expect(created.status()).toBe(201);
    const payment = (await created.json()).payment as { _id: string; providerPaymentId: string };
    const finished = await page.request.post(`/sandbox/nowpayments/payments/${payment.providerPaymentId}/status`, {
      data: { status: 'finished' },
    });
    expect((await finished.json()).ipn).toMatchObject({ delivered: true });
    await expect(page.getByTestId('notification-count')).toHaveText('1');
    await expect(bell).toHaveAccessibleName('Notifications, 1 unread');

    // The panel: the notice links to the payment.
    await bell.click();
    const panel = page.getByRole('region', { name: 'Notifications', exact: true });
    await expect(panel).toBeVisible();
    const link = panel.getByRole('link', { name: /Payment credited/ });
    await expect(link).toHaveAttribute('href', `/dashboard/payments/${payment._id}`);
    await expect(panel).toContainText('97.00 credits were added');
    expect(await seriousViolations(page, '.notification-bell')).toEqual([]);
    await page.screenshot({ path: `test-results/notifications-panel-${width}.png` });
    // Escape closes it and gives focus back to the bell.
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(bell).toBeFocused();

    // The page lists it; "Mark all read" clears the count.
    await bell.click();
    await panel.getByRole('link', { name: 'See all notifications' }).click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: /Payment credited/ })).toBeVisible();
    expect(await seriousViolations(page, 'main')).toEqual([]);
    await page.screenshot({ path: `test-results/notifications-page-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect(page.getByTestId('notification-count')).toHaveCount(0);
    await expect(bell).toHaveAccessibleName('Notifications');
    // The notice opens the payment at its own address, which names it; a reload keeps it; Back returns.
    await page
      .getByRole('main')
      .getByRole('link', { name: /Payment credited/ })
      .press('Enter');
    await expect(page).toHaveURL(new RegExp(`/dashboard/payments/${payment._id}$`));
    await expect(page.getByTestId('payment-named')).toContainText('Top-up of 100.00 USD in BTC');
    await expect(page.getByTestId('payment-named')).toContainText(payment._id.slice(0, 8));
    await page.reload();
    await expect(page.getByTestId('complete-credits')).toHaveText('97.00');
    expect(await seriousViolations(page, 'main')).toEqual([]);
    await page.screenshot({ path: `test-results/payment-page-${width}.png`, fullPage: true });
    await page.goBack();
    await expect(page).toHaveURL(/\/notifications$/);

    // The matrix: a cell turned off stays off; security cells are locked on.
    await page.goto('/dashboard/settings/notifications');
    const discord = page.getByRole('checkbox', { name: 'Payment credited by Discord', exact: true });
    await expect(discord).toBeChecked();
    // The box follows the saved setting: it turns off once the server has answered.
    await discord.click();
    await expect(discord).not.toBeChecked();
    await expect(page.getByText('Saved.').first()).toBeVisible();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Payment credited by Discord', exact: true })).not.toBeChecked();
    const locked = page.getByRole('checkbox', { name: 'New sign-in by Email (always on)' });
    await expect(locked).toBeChecked();
    await expect(locked).toBeDisabled();
    expect(await seriousViolations(page, '#notifications')).toEqual([]);
    await page.locator('#notifications').screenshot({ path: `test-results/notifications-matrix-${width}.png` });
    expect(consoleErrors).toEqual([]);
  });
}
