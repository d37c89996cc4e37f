import { t } from '@lingui/core/macro';
import { feeTierSentence } from './fee-tiers';
import type { PortfolioProject } from './types';

/** What the Olympus team has built and runs, each with the results it is judged by. */
export function portfolio(): readonly PortfolioProject[] {
  return [
    {
      id: 'crypto-top-ups',
      title: t`Crypto top-ups`,
      summary: t`Pay in the coin you hold, receive credits in US dollars. Payments run through NOWPayments; every deposit shows the exact amount, address and memo, with a QR code and a live status.`,
      tags: [t`Payments`, t`NOWPayments`, t`Ledger`],
      outcomes: [
        t`Each payment is credited exactly once, even if the provider repeats its callback.`,
        t`A reconciliation job asks the provider about unfinished payments, so a lost callback never loses credit.`,
        t`The processing fee is shown before you pay: ${feeTierSentence()}.`,
      ],
    },
    {
      id: 'instant-swaps',
      title: t`Instant swaps with rewards`,
      summary: t`Swap one cryptocurrency for another without an account. Every finished swap earns reward credits; guests keep a claim code and redeem it after signing up.`,
      tags: [t`Exchange`, t`Rewards`, t`Guests`],
      outcomes: [
        t`Claim codes are shown once and stored hashed on our side.`,
        t`Unclaimed rewards stay available for 30 days after the swap.`,
        t`Signing in redeems pending claims automatically, with a clear summary of what was credited.`,
      ],
    },
    {
      id: 'support-desk',
      title: t`A support desk that includes guests`,
      summary: t`Tickets work before you register. When a guest signs up, their open tickets move to the new account with the whole conversation.`,
      tags: [t`Support`, t`Tickets`],
      outcomes: [
        t`Every ticket is visible only to its owner and to our support staff.`,
        t`Status moves from open to pending, resolved and closed, so you always know whose turn it is.`,
      ],
    },
    {
      id: 'community-connections',
      title: t`Discord and Telegram connections`,
      summary: t`Link your Discord or Telegram account from settings to verify who you are in our communities. Disconnect at any time with one click.`,
      tags: [t`Discord`, t`Telegram`, t`OAuth 2.0`],
      outcomes: [
        t`Discord uses OAuth 2.0 with a state bound to your session; Telegram logins are checked against their signed hash.`,
        t`A chat account can be linked to one Olympus account only.`,
      ],
    },
    {
      id: 'honest-ads',
      title: t`Ads that count honestly`,
      summary: t`Partners advertise on Olympus and see what their ads actually did: an impression counts only when at least half the ad was on screen for a full second.`,
      tags: [t`Ads`, t`Analytics`],
      outcomes: [
        t`Follows the IAB/MRC viewability rule rather than counting page loads.`,
        t`Repeat views by the same person within 30 minutes count once.`,
      ],
    },
    {
      id: 'outbound-webhooks',
      title: t`Webhooks for builders`,
      summary: t`Get a signed HTTP call when a payment finishes, your credits change, a ticket is answered or a swap completes, and wire Olympus into your own tools.`,
      tags: [t`Developers`, t`Webhooks`],
      outcomes: [
        t`Each delivery is signed with your secret (HMAC-SHA-256 over timestamp and body).`,
        t`Failed deliveries are retried with backoff, and every attempt is visible in your settings.`,
      ],
    },
  ];
}
