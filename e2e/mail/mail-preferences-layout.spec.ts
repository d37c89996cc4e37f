import { expect, signIn, test } from '../support/fixtures';

/**
 * The "Email notifications" switches on /dashboard/settings/notifications: each a compact checkbox on the line of
 * its label (not a full-width input stacked above it), with its note under the label, on desktop and
 * phone widths.
 */
for (const [name, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 375, height: 812 }],
] as const) {
  test(`notification switches sit inline with their labels (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signIn(page);
    await page.goto('/dashboard/settings/notifications');
    const panel = page.getByRole('region', { name: 'Email notifications' });
    for (const label of ['Payment credited', 'Support replies']) {
      const box = panel.getByRole('checkbox', { name: label });
      await expect(box).toBeChecked();
      const input = (await box.boundingBox())!;
      const text = (await panel.getByText(label, { exact: true }).boundingBox())!;
      expect(input.width, `${label}: checkbox width`).toBeLessThanOrEqual(28);
      expect(input.height, `${label}: checkbox height`).toBeLessThanOrEqual(28);
      // Beside the label, on its line.
      expect(input.x + input.width, `${label}: checkbox left of its label`).toBeLessThanOrEqual(text.x);
      const middle = input.y + input.height / 2;
      expect(middle, `${label}: checkbox on the label's line`).toBeGreaterThanOrEqual(text.y);
      expect(middle, `${label}: checkbox on the label's line`).toBeLessThanOrEqual(text.y + text.height);
    }
    // The note starts under the label, not under the checkbox.
    const note = (await panel.getByText('When our team answers one of your tickets.').boundingBox())!;
    const label = (await panel.getByText('Support replies', { exact: true }).boundingBox())!;
    expect(Math.abs(note.x - label.x)).toBeLessThanOrEqual(2);
    expect(note.y).toBeGreaterThanOrEqual(label.y + label.height - 1);
    await panel.screenshot({ path: `test-results/mail-preferences-${name}.png` });
  });
}
