import { t } from '@lingui/core/macro';
import type { Review } from './types';

/**
 * Customer reviews. The entries below are launch copy: replace them with genuine reviews, published with
 * each customer's permission, before the site goes public (docs/decisions/0010). When a customer asks us
 * to remove theirs, delete it here.
 */
export function reviews(): readonly Review[] {
  return [
    {
      id: 'review-memo-tag',
      quote: t`I sent XRP and forgot the destination tag on my first try. I opened a ticket as a guest, pasted the transaction hash, and had my credits the same afternoon. The payment page now shows the memo in bold, so it will not happen twice.`,
      author: 'Marta K.',
      context: t`Customer since the first release`,
      rating: 5,
    },
    {
      id: 'review-guest-rewards',
      quote: t`I like that I can swap without signing up. When I finally registered, the rewards from my earlier swaps were claimed automatically and a message told me exactly how much was added.`,
      author: 'Daniel O.',
      context: t`Uses swaps weekly`,
      rating: 5,
    },
    {
      id: 'review-fees',
      quote: t`The fee is on the screen before you pay, not buried in the terms. For larger top-ups the 1% tier makes it worth batching.`,
      author: 'Priya S.',
      context: t`Runs a small Discord community`,
      rating: 4,
    },
    {
      id: 'review-status',
      quote: t`The countdown and the live status on the payment page are reassuring. I could see my payment go from detected to confirmed without refreshing anything.`,
      author: 'Tomás R.',
      context: t`Tops up monthly`,
      rating: 5,
    },
    {
      id: 'review-telegram',
      quote: t`Connecting Telegram took two taps. Disconnecting was just as easy, which is not something I can say about most services.`,
      author: 'Aiko T.',
      context: t`Telegram user`,
      rating: 4,
    },
    {
      id: 'review-webhooks',
      quote: t`The signed webhooks let me post a message in our server every time credits land. Retries meant nothing was lost when my bot was restarting.`,
      author: 'Jonas W.',
      context: t`Developer, community bot`,
      rating: 5,
    },
  ];
}
