import { randomUUID } from 'node:crypto';
import { formatCredits } from '#shared/fees.js';
import { exchangePath, paymentPath, receiptPath, settingsPath, ticketPath } from '#shared/routes.js';
import { WEBHOOK_DISABLE_AFTER_DAYS } from '#shared/schemas/webhooks.js';
import type { DomainEvent, ExchangeFinished, RewardClaimed, SecurityChanged, WebhookDisabled } from '#server/events/domain-events.js';
import type { EmitInput } from './notifications.service.js';

/**
 * The notices of each event as people read them (title, text, and the link to the thing itself), built
 * from the domain event (noticeOf, at the end) or, for the events that are not domain events (security
 * notices), where they happen. Kept here so every channel says the same.
 */
const usd = (cents: number) => (cents / 100).toFixed(2);

export interface PaymentFacts {
  id: string;
  userId: string;
  priceAmountCents: number;
  payCurrency: string;
}

/**
 * The notice of a payment's move from `from` to `to` (NOWPayments statuses): detected when the money
 * is first seen, confirming once confirmed, credited when finished, partially paid, expired. Null for
 * a move nobody is told about.
 */
export function paymentNotice(p: PaymentFacts, from: string, to: string, creditedCents: number): EmitInput | null {
  if (from === to) return null;
  const coin = p.payCurrency.toUpperCase();
  const amount = `${usd(p.priceAmountCents)} USD in ${coin}`;
  const base = { to: { userId: p.userId }, link: paymentPath(p.id) };
  const waiting = ['pending', 'waiting'];
  const done = (s: string) => s === 'finished' || s === 'completed';
  if (done(to) && !done(from)) {
    return {
      ...base,
      event: 'payment.credited',
      key: `payment.credited:${p.id}`,
      title: 'Payment credited',
      body: `Your payment of ${amount} is complete: ${usd(creditedCents)} credits were added to your balance.`,
    };
  }
  if (to === 'confirming' && waiting.includes(from)) {
    return {
      ...base,
      event: 'payment.detected',
      key: `payment.detected:${p.id}`,
      title: 'Payment detected',
      body: `Your payment of ${amount} was seen on the network and is waiting for confirmations.`,
    };
  }
  if ((to === 'confirmed' || to === 'sending') && (waiting.includes(from) || from === 'confirming')) {
    return {
      ...base,
      event: 'payment.confirming',
      key: `payment.confirming:${p.id}`,
      title: 'Payment confirming',
      body: `Your payment of ${amount} is confirmed on the network and being processed.`,
    };
  }
  if (to === 'partially_paid') {
    return {
      ...base,
      event: 'payment.partially_paid',
      key: `payment.partially_paid:${p.id}`,
      title: 'Payment partially paid',
      body: `Less than the full amount of your ${amount} payment arrived. The credits for what arrived are added.`,
    };
  }
  if (to === 'expired') {
    return {
      ...base,
      event: 'payment.expired',
      key: `payment.expired:${p.id}`,
      title: 'Payment expired',
      body: `Your payment of ${amount} expired before any money arrived.`,
    };
  }
  return null;
}

export function ticketReplyNotice(t: {
  id: string;
  number: number;
  subject: string;
  userId: string | null;
  guestId: string | null;
}): EmitInput | null {
  const to = t.userId ? { userId: t.userId } : t.guestId ? { guestId: t.guestId } : null;
  if (!to) return null;
  return {
    to,
    event: 'ticket.reply',
    // One notice per answer: the key carries the message's id.
    key: '',
    title: `New reply on ticket #${t.number}`,
    body: `Support answered your ticket "${t.subject}".`,
    link: ticketLink(t.id),
  };
}

/** The support page opened on one ticket: the ticket's own address (docs/decisions/0313). */
export const ticketLink = (ticketId: string) => ticketPath(ticketId);

/** One exchange's own address, for users and guests alike (docs/decisions/0317). */
export const exchangeLink = (exchangeId: string) => exchangePath(exchangeId);

export function orderNotice(
  o: { id: string; userId: string; itemName: string; amountCents: number; ledgerEntryId: string },
  status: 'fulfilled' | 'refunded',
): EmitInput {
  return {
    to: { userId: o.userId },
    event: status === 'fulfilled' ? 'order.fulfilled' : 'order.refunded',
    key: `order.${status}:${o.id}`,
    title: status === 'fulfilled' ? 'Order fulfilled' : 'Order refunded',
    body:
      status === 'fulfilled'
        ? `Your order of ${o.itemName} was fulfilled.`
        : `Your order of ${o.itemName} was refunded: ${usd(o.amountCents)} credits are back on your balance.`,
    link: receiptPath(o.ledgerEntryId),
  };
}

export function chargeNotice(
  c: { id: string; userId: string; amountCents: number; description: string; ledgerEntryId: string },
  refunded: boolean,
): EmitInput {
  return {
    to: { userId: c.userId },
    event: refunded ? 'charge.refunded' : 'charge.succeeded',
    key: `charge.${refunded ? 'refunded' : 'succeeded'}:${c.id}`,
    title: refunded ? 'Charge refunded' : 'Credits charged',
    body: refunded
      ? `${usd(c.amountCents)} credits of "${c.description}" were refunded.`
      : `${usd(c.amountCents)} credits were charged for "${c.description}".`,
    link: receiptPath(c.ledgerEntryId),
  };
}

export function exchangeFinishedNotice(e: ExchangeFinished): EmitInput | null {
  if (!e.owner) return null;
  const x = e.exchange;
  const earned = e.earnedRewardCents ?? 0;
  return {
    to: e.owner,
    event: 'exchange.finished',
    key: `exchange.finished:${x.id}`,
    title: e.claimable ? 'Exchange finished: your reward is ready' : 'Exchange finished',
    body: `Your exchange of ${x.amountFrom} ${x.fromCurrency.toUpperCase()} to ${x.toCurrency.toUpperCase()} finished.${
      e.claimable
        ? ` A reward of ${formatCredits(earned)} credits is ready to claim.`
        : earned > 0 && e.rewardCredited
          ? ` ${formatCredits(earned)} credits were added to your balance.`
          : ''
    }`,
    link: exchangeLink(x.id),
  };
}

export function rewardClaimedNotice(e: RewardClaimed): EmitInput {
  return {
    to: { userId: e.userId },
    event: 'reward.claimed',
    key: `reward.claimed:${e.exchange.id}`,
    title: 'Reward claimed',
    body: `${formatCredits(e.cents)} credits from your exchange of ${e.exchange.amountFrom} ${e.exchange.fromCurrency.toUpperCase()} were added to your balance.`,
    link: exchangeLink(e.exchange.id),
  };
}

export function webhookDisabledNotice(e: WebhookDisabled): EmitInput {
  return {
    to: { userId: e.userId },
    event: 'webhook.disabled',
    key: `webhook.disabled:${e.userId}:${e.disabledAt.toISOString()}`,
    title: 'Webhook turned off',
    body: `Your webhook endpoint ${e.url} failed for ${WEBHOOK_DISABLE_AFTER_DAYS} days and was turned off. Turn it back on in your settings once it answers again.`,
    link: settingsPath('developers'),
  };
}

/** The notice of a change in how an account is entered; each one is its own notice (a fresh key). */
export function securityNotice(e: SecurityChanged): EmitInput {
  const to = { userId: e.userId };
  const key = `security.${e.change}:${e.userId}:${randomUUID()}`;
  switch (e.change) {
    case 'sign_in':
      return {
        to,
        event: 'security.sign_in',
        key,
        title: 'New sign-in to your account',
        body: `Someone signed in from a device new to your account (${e.browser}, ${e.ip}). If this was not you, change your password.`,
        link: settingsPath('security'),
      };
    case 'password_changed':
      return {
        to,
        event: 'security.password_changed',
        key,
        title: 'Your password was changed',
        body: `Your password was changed (from ${e.ip}). If this was not you, reset it now and review your sessions.`,
        link: settingsPath('security'),
      };
    case 'email_changed':
      return {
        to,
        event: 'security.email_changed',
        key,
        title: 'Your email address was changed',
        body: `Your account's email address is now ${e.email}. If this was not you, contact support at once.`,
        link: settingsPath('account'),
      };
    case 'two_factor_changed':
      return {
        to,
        event: 'security.two_factor_changed',
        key,
        title: 'Two-factor authentication changed',
        body: `${e.detail}. If this was not you, change your password.`,
        link: settingsPath('security'),
      };
    case 'account_restored':
      return {
        to,
        event: 'security.account_restored',
        key,
        title: 'Your account was restored',
        body: `Your closing account was restored (from ${e.ip}). If this was not you, reset your password now and review your sessions.`,
        link: settingsPath('security'),
      };
  }
}

/** The in-app (and chat, and generic mail per the matrix) notice a domain event becomes, if any. */
export function noticeOf(event: DomainEvent): EmitInput | null {
  switch (event.type) {
    case 'payment.changed':
      return event.refundQueued
        ? null
        : paymentNotice({ ...event.payment, userId: event.userId }, event.from, event.to, event.creditedCents);
    case 'exchange.finished':
      return exchangeFinishedNotice(event);
    case 'reward.claimed':
      return rewardClaimedNotice(event);
    case 'order.changed':
      return event.status === 'fulfilled' || event.status === 'refunded'
        ? orderNotice(
            {
              id: event.order.orderId,
              userId: event.userId,
              itemName: event.itemName,
              amountCents: event.amountCents,
              ledgerEntryId: event.receiptEntryId,
            },
            event.status,
          )
        : null;
    case 'charge.changed':
      return chargeNotice({ ...event.charge, userId: event.userId }, event.refunded);
    case 'ticket.answered': {
      const notice = ticketReplyNotice(event.ticket);
      // One notice per answer: the key carries the message's id.
      return notice && { ...notice, key: `ticket.reply:${event.messageId}` };
    }
    case 'webhook.disabled':
      return webhookDisabledNotice(event);
    case 'security.changed':
      return securityNotice(event);
    default:
      return null;
  }
}
