import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, test } from '../support/fixtures.js';

/**
 * The Telegram and Discord sandboxes as a person checking notifications sees them: connecting asks the
 * bot's permission to write (Telegram) and to join the server (Discord), and the sandbox pages show what
 * the bots sent, newest first, as people would read it (docs/providers.md).
 */

const TELEGRAM_BOT_TOKEN = '0:sandbox-bot-token';
const DISCORD_BOT = { authorization: 'Bot sandbox-discord-bot-token' };
const uniqueName = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toLowerCase();

async function publicOrigin(page: Page): Promise<string> {
  const res = await page.request.get('/api/auth/telegram/config');
  const { authUrl } = (await res.json()) as { authUrl: string };
  return new URL(authUrl).origin;
}

async function me(page: Page, token: string) {
  const res = await page.request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  return ((await res.json()) as { user: { discord: { id: string } | null; telegram: { id: string } | null } }).user;
}

async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

async function screenshots(page: Page, name: string) {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: `test-results/${name}-375.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `test-results/${name}-1280.png`, fullPage: true });
}

test('Telegram: the login asks to let the bot write, and the sandbox page shows what the bot sent', async ({ page, consoleErrors }) => {
  const origin = await publicOrigin(page);
  const { token } = await signIn(page);
  await page.goto(`${origin}/dashboard/settings/connections`);
  await page.getByRole('listitem', { name: 'Telegram' }).getByRole('button', { name: 'Connect Telegram' }).click();
  await expect(page.getByRole('heading', { name: 'Log in to Olympus with Telegram' })).toBeVisible();
  const allow = page.getByLabel('Allow @olympus_sandbox_bot to send me messages');
  await expect(allow).toBeChecked();
  await page.getByLabel('Telegram username').fill(uniqueName('tg_'));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Telegram account connected successfully!')).toBeVisible();
  const chatId = (await me(page, token)).telegram!.id;

  const sent = await page.request.post(`/sandbox/telegram/bot${TELEGRAM_BOT_TOKEN}/sendMessage`, {
    data: {
      chat_id: chatId,
      parse_mode: 'HTML',
      text: `<b>Payment credited</b>\nYour top-up of 100 &lt;USD&gt; &amp; fees arrived.\n\n<a href="${origin}/payment/process?paymentId=p1">Open in Olympus</a>`,
    },
  });
  expect(sent.status()).toBe(200);

  await page.goto(`/sandbox/telegram?chatId=${chatId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Telegram sandbox: what the bot sent' })).toBeVisible();
  const message = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first();
  await expect(message).toContainText('Payment credited\nYour top-up of 100 <USD> & fees arrived.');
  await expect(message.getByRole('link', { name: `${origin}/payment/process?paymentId=p1` })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, 'telegram-sandbox');
  expect(consoleErrors).toEqual([]);
});

test('Discord: connecting joins the server, and the sandbox page shows the direct messages', async ({ page, consoleErrors }) => {
  const origin = await publicOrigin(page);
  const { token } = await signIn(page);
  await page.goto(`${origin}/dashboard/settings/connections`);
  await page.getByRole('listitem', { name: 'Discord' }).getByRole('button', { name: 'Connect Discord' }).click();
  await expect(page.getByText('Join the Olympus server, so its bot can send you notifications')).toBeVisible();
  await page.getByLabel('Sandbox Discord username').fill(uniqueName('dc_'));
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByText('Discord account connected successfully!')).toBeVisible();
  const discordId = (await me(page, token)).discord!.id;
  const members = (await (await page.request.get(`/sandbox/discord/members?userId=${discordId}`)).json()) as {
    members: { userId: string }[];
  };
  expect(members.members.map((m) => m.userId)).toEqual([discordId]);

  const channel = (await (
    await page.request.post('/sandbox/discord/api/users/@me/channels', { headers: DISCORD_BOT, data: { recipient_id: discordId } })
  ).json()) as { id: string };
  const sent = await page.request.post(`/sandbox/discord/api/channels/${channel.id}/messages`, {
    headers: DISCORD_BOT,
    data: {
      content: `**Reply on ticket \\#12**\nSupport answered\\: \\*thanks\\*\n<${origin}/support/tickets/12>`,
      allowed_mentions: { parse: [] },
    },
  });
  expect(sent.status()).toBe(200);

  await page.goto(`/sandbox/discord?userId=${discordId}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Discord sandbox: what the bot sent' })).toBeVisible();
  const message = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first();
  await expect(message).toContainText('Reply on ticket \\#12');
  await expect(message).toContainText('allowed_mentions: {"parse":[]}');
  await expectAccessible(page);
  await screenshots(page, 'discord-sandbox');
  expect(consoleErrors).toEqual([]);
});
