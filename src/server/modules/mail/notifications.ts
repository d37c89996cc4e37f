import { eq, inArray } from 'drizzle-orm';
import type { Tx } from '#server/db/client.js';
import { dashboardPaths, paymentPath, settingsPath, ticketPath } from '#shared/routes.js';
import { translatorFor } from '#server/i18n/translator.js';
import { users } from '#server/modules/users/users.tables.js';
import { findUserById } from '#server/modules/users/users.service.js';
import type { MailService, QueueMailInput } from './mail.service.js';
import { mailPreferences } from './mail.tables.js';
import { paymentCreditedMail } from './templates/payment-credited.js';
import { orderUpdateMail, type OrderMailEvent } from './templates/order-update.js';
import { ticketReplyMail } from './templates/ticket-reply.js';
import { webhookDisabledMail } from './templates/webhook-disabled.js';

/**
 * Optional notifications, queued inside the transaction that makes the change (payments, tickets, which
 * receive the app's mail service from the app context):
 * the mail exists only if the change commits, once per change. A user who turned the kind off gets
 * nothing. Never fails the caller: errors are logged by the mail service and dropped. Each mail is
 * written in its recipient's language, `users.locale` (docs/decisions/0328).
 */
export async function notifyPaymentCredited(mail: MailService | undefined, tx: Tx, input: PaymentCredited): Promise<void> {
  // A stopped queue (an app closing, a service built without mail) sends nothing, as webhook events do.
  if (!mail?.started) return;
  if (!(await mail.wants(tx, input.userId, 'payment_credited'))) return;
  const user = await findUserById(tx, input.userId);
  if (!user) return;
  await mail.queueSafely(tx, paymentCreditedMessage(mail, user, input));
}

type PaymentCredited = {
  userId: string;
  paymentId: string;
  priceAmountCents: number;
  feeCents: number;
  creditedCents: number;
  payCurrency: string;
};

/** The "payment credited" mail to one user, as the single and the batched notification queue it. */
function paymentCreditedMessage(
  mail: MailService,
  user: { id: string; email: string; username: string; locale: string | null },
  input: PaymentCredited,
): QueueMailInput {
  const tr = translatorFor(user.locale);
  const unsubscribe = mail.unsubscribe(user.id, 'payment_credited');
  return {
    userId: user.id,
    kind: 'payment_credited',
    to: user.email,
    headers: unsubscribe.headers,
    mail: paymentCreditedMail(tr, {
      username: user.username,
      amountPaid: tr.cents(input.priceAmountCents),
      fee: tr.cents(input.feeCents),
      credits: tr.cents(input.creditedCents),
      currency: input.payCurrency.toUpperCase(),
      url: mail.link(paymentPath(input.paymentId)),
      unsubscribeUrl: unsubscribe.url,
    }),
  };
}

/**
 * notifyPaymentCredited() for many payments at once (group commit of IPNs, docs/decisions/0191): one
 * read of the users and their preferences, one savepoint writing every mail and its job.
 */
export async function notifyPaymentsCredited(mail: MailService | undefined, tx: Tx, inputs: PaymentCredited[]): Promise<void> {
  if (!mail?.started || inputs.length === 0) return;
  const rows = await tx
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      locale: users.locale,
      wants: mailPreferences.paymentCredited,
    })
    .from(users)
    .leftJoin(mailPreferences, eq(mailPreferences.userId, users.id))
    .where(inArray(users.id, [...new Set(inputs.map((i) => i.userId))]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const mails: QueueMailInput[] = [];
  for (const input of inputs) {
    const user = byId.get(input.userId);
    // No preferences row: yes (as MailService.wants).
    if (!user || user.wants === false) continue;
    mails.push(paymentCreditedMessage(mail, user, input));
  }
  await mail.queueManySafely(tx, mails);
}

export async function notifyTicketReply(
  mail: MailService | undefined,
  tx: Tx,
  input: { userId: string; ticketId: string; number: number; subject: string; message: string },
): Promise<void> {
  // A stopped queue (an app closing, a service built without mail) sends nothing, as webhook events do.
  if (!mail?.started) return;
  if (!(await mail.wants(tx, input.userId, 'ticket_reply'))) return;
  const user = await findUserById(tx, input.userId);
  if (!user) return;
  const unsubscribe = mail.unsubscribe(user.id, 'ticket_reply');
  await mail.queueSafely(tx, {
    userId: user.id,
    kind: 'ticket_reply',
    to: user.email,
    headers: unsubscribe.headers,
    mail: ticketReplyMail(translatorFor(user.locale), {
      username: user.username,
      number: input.number,
      subject: input.subject,
      message: input.message,
      url: mail.link(ticketPath(input.ticketId)),
      unsubscribeUrl: unsubscribe.url,
    }),
  });
}

/**
 * A user's webhook was turned off after five days of failures (decision 0180): an account notice, always
 * sent, queued in the transaction that turns the webhook off.
 */
export async function notifyWebhookDisabled(
  mail: MailService | undefined,
  tx: Tx,
  input: { userId: string; url: string; failingSince: Date; lastError: string | null },
): Promise<void> {
  if (!mail?.started) return;
  const user = await findUserById(tx, input.userId);
  if (!user) return;
  await mail.queueSafely(tx, {
    userId: user.id,
    kind: 'webhook_disabled',
    to: user.email,
    mail: webhookDisabledMail(translatorFor(user.locale), {
      username: user.username,
      url: input.url,
      failingSince: input.failingSince,
      lastError: input.lastError,
      settingsUrl: mail.link(settingsPath('developers')),
    }),
  });
}

export async function notifyOrderUpdate(
  mail: MailService | undefined,
  tx: Tx,
  input: { userId: string; event: OrderMailEvent; orderId: string; itemName: string; amountCents: number; ledgerReference: string },
): Promise<void> {
  // A stopped queue (an app closing, a service built without mail) sends nothing, as webhook events do.
  if (!mail?.started) return;
  if (!(await mail.wants(tx, input.userId, 'order_updates'))) return;
  const user = await findUserById(tx, input.userId);
  if (!user) return;
  const unsubscribe = mail.unsubscribe(user.id, 'order_updates');
  const tr = translatorFor(user.locale);
  await mail.queueSafely(tx, {
    userId: user.id,
    kind: 'order_updates',
    to: user.email,
    headers: unsubscribe.headers,
    mail: orderUpdateMail(tr, {
      event: input.event,
      username: user.username,
      itemName: input.itemName,
      credits: tr.cents(input.amountCents),
      orderId: input.orderId,
      ledgerReference: input.ledgerReference,
      url: mail.link(dashboardPaths.shop),
      unsubscribeUrl: unsubscribe.url,
    }),
  });
}
