import type { PatchNote } from './types';

/** Release notes, newest first. Add an entry at the top with each release. */
export const PATCH_NOTES: readonly PatchNote[] = [
  {
    version: '1.3.0',
    date: '2026-11-18',
    title: 'Webhooks and a clearer payment page',
    changes: [
      {
        kind: 'new',
        text: 'Outbound webhooks: get a signed call when a payment finishes, credits change, a ticket is answered or a swap completes.',
      },
      {
        kind: 'improved',
        text: 'The payment page shows the approximate USD value, the processing fee and the credits you will receive side by side.',
      },
      { kind: 'improved', text: 'The destination tag or memo now has its own Copy button.' },
      { kind: 'fixed', text: 'The payment countdown no longer restarts when the page is reloaded.' },
    ],
  },
  {
    version: '1.2.0',
    date: '2026-10-27',
    title: 'Guest rewards you can keep',
    changes: [
      { kind: 'new', text: 'Swaps made as a guest earn reward credits you can claim for 30 days after signing up or logging in.' },
      { kind: 'new', text: 'Signing in redeems pending claims automatically and tells you how many credits were added.' },
      { kind: 'improved', text: 'Expired or already used claims are cleaned up from your browser on their own.' },
    ],
  },
  {
    version: '1.1.0',
    date: '2026-09-29',
    title: 'Discord and Telegram',
    changes: [
      { kind: 'new', text: 'Connect and disconnect your Discord and Telegram accounts from Settings.' },
      { kind: 'security', text: 'A chat account can now be linked to only one Olympus account.' },
      { kind: 'fixed', text: 'Failed connections show the reason and return you to Settings after three seconds.' },
    ],
  },
  {
    version: '1.0.1',
    date: '2026-09-10',
    title: 'Session fixes',
    changes: [
      { kind: 'security', text: 'Logging out or changing your password now ends that session on every device within a second.' },
      { kind: 'fixed', text: 'Sessions are refreshed five minutes before they expire instead of failing mid-request.' },
      { kind: 'fixed', text: 'Guest support tickets no longer ask guests to log in.' },
    ],
  },
  {
    version: '1.0.0',
    date: '2026-09-01',
    title: 'Olympus launches',
    changes: [
      { kind: 'new', text: 'Top up credits in cryptocurrency through NOWPayments, with a QR code and live payment status.' },
      { kind: 'new', text: 'Support tickets for guests and registered users.' },
      { kind: 'new', text: 'Continue as a guest, or register with a username and password.' },
    ],
  },
];
