import { feeTierSentence } from './fee-tiers';
import type { PortfolioProject } from './types';

/** What the Olympus team has built and runs, each with the results it is judged by. */
export const PORTFOLIO: readonly PortfolioProject[] = [
  {
    id: 'crypto-top-ups',
    title: 'Crypto top-ups',
    summary:
      'Pay in the coin you hold, receive credits in US dollars. Payments run through NOWPayments; every deposit shows the exact amount, address and memo, with a QR code and a live status.',
    tags: ['Payments', 'NOWPayments', 'Ledger'],
    outcomes: [
      'Each payment is credited exactly once, even if the provider repeats its callback.',
      'A reconciliation job asks the provider about unfinished payments, so a lost callback never loses credit.',
      `The processing fee is shown before you pay: ${feeTierSentence()}.`,
    ],
  },
  {
    id: 'instant-swaps',
    title: 'Instant swaps with rewards',
    summary:
      'Swap one cryptocurrency for another without an account. Every finished swap earns reward credits; guests keep a claim code and redeem it after signing up.',
    tags: ['Exchange', 'Rewards', 'Guests'],
    outcomes: [
      'Claim codes are shown once and stored hashed on our side.',
      'Unclaimed rewards stay available for 30 days after the swap.',
      'Signing in redeems pending claims automatically, with a clear summary of what was credited.',
    ],
  },
  {
    id: 'support-desk',
    title: 'A support desk that includes guests',
    summary:
      'Tickets work before you register. When a guest signs up, their open tickets move to the new account with the whole conversation.',
    tags: ['Support', 'Tickets'],
    outcomes: [
      'Every ticket is visible only to its owner and to our support staff.',
      'Status moves from open to pending, resolved and closed, so you always know whose turn it is.',
    ],
  },
  {
    id: 'community-connections',
    title: 'Discord and Telegram connections',
    summary:
      'Link your Discord or Telegram account from settings to verify who you are in our communities. Disconnect at any time with one click.',
    tags: ['Discord', 'Telegram', 'OAuth 2.0'],
    outcomes: [
      'Discord uses OAuth 2.0 with a state bound to your session; Telegram logins are checked against their signed hash.',
      'A chat account can be linked to one Olympus account only.',
    ],
  },
  {
    id: 'honest-ads',
    title: 'Ads that count honestly',
    summary:
      'Partners advertise on Olympus and see what their ads actually did: an impression counts only when at least half the ad was on screen for a full second.',
    tags: ['Ads', 'Analytics'],
    outcomes: [
      'Follows the IAB/MRC viewability rule rather than counting page loads.',
      'Repeat views by the same person within 30 minutes count once.',
    ],
  },
  {
    id: 'outbound-webhooks',
    title: 'Webhooks for builders',
    summary:
      'Get a signed HTTP call when a payment finishes, your credits change, a ticket is answered or a swap completes, and wire Olympus into your own tools.',
    tags: ['Developers', 'Webhooks'],
    outcomes: [
      'Each delivery is signed with your secret (HMAC-SHA-256 over timestamp and body).',
      'Failed deliveries are retried with backoff, and every attempt is visible in your settings.',
    ],
  },
];
