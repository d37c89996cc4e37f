import { expect, signIn, test } from '../support/fixtures';

/**
 * One control per choice (docs/decisions/0321-dashboard-shell.md): the email preferences live only in the
 * notification matrix's email column, on desktop and phone widths. A change there is what the mail
 * preferences (and the unsubscribe links) read, and it stays after a reload.
 */
for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 375, height: 812 }],
] as const) {
  test(`the email preferences have one control, the matrix's email column (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const { token } = await signIn(page);
    await page.goto('/dashboard/settings/notifications');
    const box = page.getByRole('checkbox', { name: 'Support replied to a ticket by Email' });
    await expect(box).toBeChecked();
    // No second switch for the same setting anywhere on the page.
    await expect(page.getByRole('region', { name: 'Email notifications' })).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: 'Support replies', exact: true })).toHaveCount(0);
    await expect(page.getByRole('checkbox', { name: /^Support replied to a ticket by Email/ })).toHaveCount(1);
    const input = (await box.boundingBox())!;
    expect(input.width, 'a compact checkbox').toBeLessThanOrEqual(28);

    // The box shows what the server saved (it is off while the change is on its way).
    await box.click();
    await expect(box).not.toBeChecked();
    await expect(box).toBeEnabled();
    const saved = await page.request.get('/api/users/mail-preferences', { headers: { authorization: `Bearer ${token}` } });
    expect(await saved.json()).toMatchObject({ ticketReply: false, paymentCredited: true });
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Support replied to a ticket by Email' })).not.toBeChecked();
    await page.screenshot({ path: `test-results/notification-preferences-${name}.png`, fullPage: true });
  });
}
