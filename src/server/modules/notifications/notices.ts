import { randomUUID } from 'node:crypto';
import { exchangePath, paymentPath, receiptPath, settingsPath, ticketPath } from '#shared/routes.js';
import { WEBHOOK_DISABLE_AFTER_DAYS } from '#shared/schemas/webhooks.js';
import type { DomainEvent, ExchangeFinished, RewardClaimed, SecurityChanged, WebhookDisabled } from '#server/events/domain-events.js';
import { english, type Translator } from '#server/i18n/translator.js';
import { twoFactorDetail } from '#server/modules/mail/templates/two-factor-notice.js';
import type { EmitInput } from './notifications.service.js';

/**
 * The notices of each event as people read them (title, text, and the link to the thing itself), built
 * from the domain event (noticeOf, at the end) or, for the events that are not domain events (security
 * notices), where they happen. Kept here so every channel says the same. Each is written in the
 * recipient's language (`tr`, docs/decisions/0328); English when nobody chose one.
 */

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
export function paymentNotice(
  p: PaymentFacts,
  from: string,
  to: string,
  creditedCents: number,
  tr: Translator = english,
): EmitInput | null {
  if (from === to) return null;
  const coin = p.payCurrency.toUpperCase();
  const amount = tr.t(/*i18n*/ '{usd} USD in {coin}', { usd: tr.cents(p.priceAmountCents), coin });
  const base = { to: { userId: p.userId }, link: paymentPath(p.id) };
  const waiting = ['pending', 'waiting'];
  const done = (s: string) => s === 'finished' || s === 'completed';
  if (done(to) && !done(from)) {
    return {
      ...base,
      event: 'payment.credited',
      key: `payment.credited:${p.id}`,
      title: tr.t(/*i18n*/ 'Payment credited'),
      body: tr.t(/*i18n*/ 'Your payment of {amount} is complete: {credits} credits were added to your balance.', {
        amount,
        credits: tr.cents(creditedCents),
      }),
    };
  }
  if (to === 'confirming' && waiting.includes(from)) {
    return {
      ...base,
      event: 'payment.detected',
      key: `payment.detected:${p.id}`,
      title: tr.t(/*i18n*/ 'Payment detected'),
      body: tr.t(/*i18n*/ 'Your payment of {amount} was seen on the network and is waiting for confirmations.', { amount }),
    };
  }
  if ((to === 'confirmed' || to === 'sending') && (waiting.includes(from) || from === 'confirming')) {
    return {
      ...base,
      event: 'payment.confirming',
      key: `payment.confirming:${p.id}`,
      title: tr.t(/*i18n*/ 'Payment confirming'),
      body: tr.t(/*i18n*/ 'Your payment of {amount} is confirmed on the network and being processed.', { amount }),
    };
  }
  if (to === 'partially_paid') {
    return {
      ...base,
      event: 'payment.partially_paid',
      key: `payment.partially_paid:${p.id}`,
      title: tr.t(/*i18n*/ 'Payment partially paid'),
      body: tr.t(/*i18n*/ 'Less than the full amount of your {amount} payment arrived. The credits for what arrived are added.', {
        amount,
      }),
    };
  }
  if (to === 'expired') {
    return {
      ...base,
      event: 'payment.expired',
      key: `payment.expired:${p.id}`,
      title: tr.t(/*i18n*/ 'Payment expired'),
      body: tr.t(/*i18n*/ 'Your payment of {amount} expired before any money arrived.', { amount }),
    };
  }
  return null;
}

export function ticketReplyNotice(
  t: {
    id: string;
    number: number;
    subject: string;
    userId: string | null;
    guestId: string | null;
  },
  tr: Translator = english,
): EmitInput | null {
  const to = t.userId ? { userId: t.userId } : t.guestId ? { guestId: t.guestId } : null;
  if (!to) return null;
  return {
    to,
    event: 'ticket.reply',
    // One notice per answer: the key carries the message's id.
    key: '',
    title: tr.t(/*i18n*/ 'New reply on ticket #{number}', { number: String(t.number) }),
    body: tr.t(/*i18n*/ 'Support answered your ticket "{subject}".', { subject: t.subject }),
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
  tr: Translator = english,
): EmitInput {
  return {
    to: { userId: o.userId },
    event: status === 'fulfilled' ? 'order.fulfilled' : 'order.refunded',
    key: `order.${status}:${o.id}`,
    title: status === 'fulfilled' ? tr.t(/*i18n*/ 'Order fulfilled') : tr.t(/*i18n*/ 'Order refunded'),
    body:
      status === 'fulfilled'
        ? tr.t(/*i18n*/ 'Your order of {item} was fulfilled.', { item: o.itemName })
        : tr.t(/*i18n*/ 'Your order of {item} was refunded: {credits} credits are back on your balance.', {
            item: o.itemName,
            credits: tr.cents(o.amountCents),
          }),
    link: receiptPath(o.ledgerEntryId),
  };
}

export function chargeNotice(
  c: { id: string; userId: string; amountCents: number; description: string; ledgerEntryId: string },
  refunded: boolean,
  tr: Translator = english,
): EmitInput {
  return {
    to: { userId: c.userId },
    event: refunded ? 'charge.refunded' : 'charge.succeeded',
    key: `charge.${refunded ? 'refunded' : 'succeeded'}:${c.id}`,
    title: refunded ? tr.t(/*i18n*/ 'Charge refunded') : tr.t(/*i18n*/ 'Credits charged'),
    body: refunded
      ? tr.t(/*i18n*/ '{credits} credits of "{description}" were refunded.', {
          credits: tr.cents(c.amountCents),
          description: c.description,
        })
      : tr.t(/*i18n*/ '{credits} credits were charged for "{description}".', {
          credits: tr.cents(c.amountCents),
          description: c.description,
        }),
    link: receiptPath(c.ledgerEntryId),
  };
}

export function exchangeFinishedNotice(e: ExchangeFinished, tr: Translator = english): EmitInput | null {
  if (!e.owner) return null;
  const x = e.exchange;
  const earned = e.earnedRewardCents ?? 0;
  return {
    to: e.owner,
    event: 'exchange.finished',
    key: `exchange.finished:${x.id}`,
    title: e.claimable ? tr.t(/*i18n*/ 'Exchange finished: your reward is ready') : tr.t(/*i18n*/ 'Exchange finished'),
    body: `${tr.t(/*i18n*/ 'Your exchange of {amount} {from} to {to} finished.', {
      amount: tr.crypto(x.amountFrom),
      from: x.fromCurrency.toUpperCase(),
      to: x.toCurrency.toUpperCase(),
    })}${
      e.claimable
        ? ` ${tr.t(/*i18n*/ 'A reward of {credits} credits is ready to claim.', { credits: tr.cents(earned) })}`
        : earned > 0 && e.rewardCredited
          ? ` ${tr.t(/*i18n*/ '{credits} credits were added to your balance.', { credits: tr.cents(earned) })}`
          : ''
    }`,
    link: exchangeLink(x.id),
  };
}

export function rewardClaimedNotice(e: RewardClaimed, tr: Translator = english): EmitInput {
  return {
    to: { userId: e.userId },
    event: 'reward.claimed',
    key: `reward.claimed:${e.exchange.id}`,
    title: tr.t(/*i18n*/ 'Reward claimed'),
    body: tr.t(/*i18n*/ '{credits} credits from your exchange of {amount} {from} were added to your balance.', {
      credits: tr.cents(e.cents),
      amount: tr.crypto(e.exchange.amountFrom),
      from: e.exchange.fromCurrency.toUpperCase(),
    }),
    link: exchangeLink(e.exchange.id),
  };
}

export function webhookDisabledNotice(e: WebhookDisabled, tr: Translator = english): EmitInput {
  return {
    to: { userId: e.userId },
    event: 'webhook.disabled',
    key: `webhook.disabled:${e.userId}:${e.disabledAt.toISOString()}`,
    title: tr.t(/*i18n*/ 'Webhook turned off'),
    body: tr.t(
      /*i18n*/ 'Your webhook endpoint {url} failed for {days} days and was turned off. Turn it back on in your settings once it answers again.',
      { url: e.url, days: WEBHOOK_DISABLE_AFTER_DAYS },
    ),
    link: settingsPath('developers'),
  };
}

/** The notice of a change in how an account is entered; each one is its own notice (a fresh key). */
export function securityNotice(e: SecurityChanged, tr: Translator = english): EmitInput {
  const to = { userId: e.userId };
  const key = `security.${e.change}:${e.userId}:${randomUUID()}`;
  switch (e.change) {
    case 'sign_in':
      return {
        to,
        event: 'security.sign_in',
        key,
        title: tr.t(/*i18n*/ 'New sign-in to your account'),
        body: tr.t(
          /*i18n*/ 'Someone signed in from a device new to your account ({browser}, {ip}). If this was not you, change your password.',
          { browser: String(e.browser), ip: String(e.ip) },
        ),
        link: settingsPath('security'),
      };
    case 'password_changed':
      return {
        to,
        event: 'security.password_changed',
        key,
        title: tr.t(/*i18n*/ 'Your password was changed'),
        body: tr.t(/*i18n*/ 'Your password was changed (from {ip}). If this was not you, reset it now and review your sessions.', {
          ip: String(e.ip),
        }),
        link: settingsPath('security'),
      };
    case 'email_changed':
      return {
        to,
        event: 'security.email_changed',
        key,
        title: tr.t(/*i18n*/ 'Your email address was changed'),
        body: tr.t(/*i18n*/ "Your account's email address is now {email}. If this was not you, contact support at once.", {
          email: String(e.email),
        }),
        link: settingsPath('account'),
      };
    case 'two_factor_changed':
      return {
        to,
        event: 'security.two_factor_changed',
        key,
        title: tr.t(/*i18n*/ 'Two-factor authentication changed'),
        body: tr.t(/*i18n*/ '{detail}. If this was not you, change your password.', {
          detail: e.twoFactor ? twoFactorDetail(tr, e.twoFactor) : '',
        }),
        link: settingsPath('security'),
      };
    case 'account_restored':
      return {
        to,
        event: 'security.account_restored',
        key,
        title: tr.t(/*i18n*/ 'Your account was restored'),
        body: tr.t(
          /*i18n*/ 'Your closing account was restored (from {ip}). If this was not you, reset your password now and review your sessions.',
          { ip: String(e.ip) },
        ),
        link: settingsPath('security'),
      };
  }
}

/** The in-app (and chat, and generic mail per the matrix) notice a domain event becomes, if any. */
export function noticeOf(event: DomainEvent, tr: Translator = english): EmitInput | null {
  switch (event.type) {
    case 'payment.changed':
      return event.refundQueued
        ? null
        : paymentNotice({ ...event.payment, userId: event.userId }, event.from, event.to, event.creditedCents, tr);
    case 'exchange.finished':
      return exchangeFinishedNotice(event, tr);
    case 'reward.claimed':
      return rewardClaimedNotice(event, tr);
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
            tr,
          )
        : null;
    case 'charge.changed':
      return chargeNotice({ ...event.charge, userId: event.userId }, event.refunded, tr);
    case 'ticket.answered': {
      const notice = ticketReplyNotice(event.ticket, tr);
      // One notice per answer: the key carries the message's id.
      return notice && { ...notice, key: `ticket.reply:${event.messageId}` };
    }
    case 'webhook.disabled':
      return webhookDisabledNotice(event, tr);
    case 'security.changed':
      return securityNotice(event, tr);
    default:
      return null;
  }
}

/** My referrals page, where the notices of the referral programme lead (docs/product.md#referrals). */
export const REFERRALS_LINK = '/dashboard/referrals';

/** "Someone joined with your link": to the referrer, when a person registers with their code. */
export function referralJoinedNotice(
  r: { referralId: string; referrerId: string; maskedName: string },
  tr: Translator = english,
): EmitInput {
  return {
    to: { userId: r.referrerId },
    event: 'referral.joined',
    key: `referral.joined:${r.referralId}`,
    title: tr.t(/*i18n*/ 'Someone joined with your link'),
    body: tr.t(/*i18n*/ '{name} signed up with your referral link. You earn a share of their top-ups once they are final.', {
      name: r.maskedName,
    }),
    link: REFERRALS_LINK,
  };
}

/** "You earned N credits": to the referrer, when a share of a top-up is earned (held until `releaseAt`). */
export function referralRewardNotice(
  r: { rewardId: string; referrerId: string; maskedName: string; amountCents: number; releaseAt: Date; held: boolean },
  tr: Translator = english,
): EmitInput {
  return {
    to: { userId: r.referrerId },
    event: 'referral.reward_earned',
    key: `referral.reward_earned:${r.rewardId}`,
    title: tr.t(/*i18n*/ 'You earned {credits} credits', { credits: tr.cents(r.amountCents) }),
    body: r.held
      ? tr.t(/*i18n*/ '{name} topped up with your referral link. Your {credits} credits become spendable on {date}.', {
          name: r.maskedName,
          credits: tr.cents(r.amountCents),
          date: tr.dateTime(r.releaseAt),
        })
      : tr.t(/*i18n*/ '{name} topped up with your referral link. Your {credits} credits were added to your balance.', {
          name: r.maskedName,
          credits: tr.cents(r.amountCents),
        }),
    link: REFERRALS_LINK,
  };
}
