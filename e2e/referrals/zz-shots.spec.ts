import { expect, test, quietNotificationStream } from '../support/fixtures.js';
import { movePayment, registerPastOnboarding, startTopUp, staffToken } from '../support/seed.js';

test('shots', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const a = await registerPastOnboarding(page.request, 'shot');
  const sum = await (await page.request.get('/api/referrals/summary', { headers: a.auth })).json();
  const friend = async (n: number) => {
    const username = `friend${n}_${Date.now().toString(36)}`;
    const reg = await page.request.post('/api/register', {
      headers: { 'user-agent': `friend-${n}-${Math.random()}` },
      data: { username, email: `${username}@example.org`, password: 'correct horse battery staple', turnstileToken: 'ok', referralCode: sum.code },
    });
    expect(reg.status()).toBe(201);
    const { token } = await reg.json();
    return { username, auth: { authorization: `Bearer ${token}` } };
  };
  const b = await friend(1);
  const p = await startTopUp(page.request, b.auth, 100);
  await movePayment(page.request, p.providerPaymentId, 'finished');
  await friend(2);
  const c = await friend(3);
  const admin = await staffToken(page.request, 'admin');
  const adminAuth = { authorization: `Bearer ${admin}` };
  const list = await (await page.request.get(`/api/admin/referrals?q=${c.username}`, { headers: adminAuth })).json();
  const refuse = await page.request.post(`/api/admin/referrals/${list.referrals[0]._id}/refuse`, {
    headers: adminAuth,
    data: { note: 'Both accounts were opened by one person, from one address.' },
  });
  expect(refuse.status(), await refuse.text()).toBe(200);
  await expect(async () => {
    const s = await (await page.request.get('/api/referrals/summary', { headers: a.auth })).json();
    expect(s.heldCents).toBe(970);
  }).toPass({ timeout: 30_000 });

  for (const width of [375, 1280]) {
    const ctx = await browser.newContext({ viewport: { width, height: 900 } });
    await quietNotificationStream(ctx);
    await ctx.addInitScript((token) => {
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('userType', 'user');
    }, a.token);
    const pg = await ctx.newPage();
    await pg.goto('/dashboard/referrals');
    await expect(pg.getByTestId('referral-held')).toHaveText('9.70 credits');
    await expect(pg.getByRole('table', { name: 'People who joined with your link' })).toBeVisible();
    await pg.screenshot({ path: `/tmp/ref-web-mine-${width}.png`, fullPage: true });
    await ctx.close();

    const sctx = await browser.newContext({ viewport: { width, height: 900 } });
    await quietNotificationStream(sctx);
    await sctx.addInitScript((token) => {
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('userType', 'user');
    }, admin);
    const sp = await sctx.newPage();
    await sp.goto('/dashboard/staff/referrals');
    await expect(sp.getByRole('table', { name: 'Referrals' })).toBeVisible();
    await expect(sp.getByRole('table', { name: 'Changes' }).or(sp.getByText('The settings have not been changed yet'))).toBeVisible();
    await sp.screenshot({ path: `/tmp/ref-web-staff-${width}.png`, fullPage: true });
    await sctx.close();
  }
  const reg = await browser.newContext({ viewport: { width: 375, height: 900 } });
  const rp = await reg.newPage();
  await rp.goto(`/register?ref=${sum.code}`);
  await expect(rp.getByTestId('referral-invited')).toBeVisible();
  await rp.screenshot({ path: `/tmp/ref-web-register-375.png`, fullPage: true });
});
