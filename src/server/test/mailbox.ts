import { expect } from 'vitest';
import { call } from './http.js';
import type { TestApp } from './test-app.js';

export interface SandboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

/** The mail sandbox's messages to `to`, newest first (GET /sandbox/mail/messages, as a test reads them). */
export async function mailTo(t: TestApp, to: string): Promise<SandboxMail[]> {
  const res = await call(t, 'GET', `/sandbox/mail/messages?to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.json.messages as SandboxMail[];
}

/**
 * Waits until `count` messages with this subject reached `to`: the send job runs in the background, so
 * the job queue is drained first (every due job run now) and the mailbox read after it. A message
 * still missing then is looked for again until the deadline (a send that failed and is retried later).
 */
export async function waitForMail(t: TestApp, to: string, subject: string | RegExp, count = 1, timeoutMs = 20_000): Promise<SandboxMail[]> {
  const deadline = Date.now() + timeoutMs;
  const matches = (m: SandboxMail) => (typeof subject === 'string' ? m.subject === subject : subject.test(m.subject));
  for (;;) {
    await t.app.jobs.drain();
    const found = (await mailTo(t, to)).filter(matches);
    if (found.length >= count) return found;
    if (Date.now() > deadline) throw new Error(`no mail "${String(subject)}" to ${to} within ${timeoutMs} ms (found ${found.length})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `token` query parameter of the first link to `path` in a message's text part. */
export function linkToken(mail: { text: string }, path: string): string {
  const match = new RegExp(`(https?://[^\\s]+${path.replace(/[/]/g, '\\/')}\\?token=[A-Za-z0-9_%.-]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return new URL(match[1]!).searchParams.get('token')!;
}
