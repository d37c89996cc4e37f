import { t } from '@lingui/core/macro';
import type { PatchNote } from './types';

/** Release notes, newest first. Add an entry at the top with each release. */
export function patchNotes(): readonly PatchNote[] {
  return [
    {
      version: '1.3.0',
      date: '2026-11-18',
      title: t`Webhooks and a clearer payment page`,
      changes: [
        {
          kind: 'new',
          text: t`Outbound webhooks: get a signed call when a payment finishes, credits change, a ticket is answered or a swap completes.`,
        },
        {
          kind: 'improved',
          text: t`The payment page shows the approximate USD value, the processing fee and the credits you will receive side by side.`,
        },
        { kind: 'improved', text: t`The destination tag or memo now has its own Copy button.` },
        { kind: 'fixed', text: t`The payment countdown no longer restarts when the page is reloaded.` },
      ],
    },
    {
      version: '1.2.0',
      date: '2026-10-27',
      title: t`Guest rewards you can keep`,
      changes: [
        { kind: 'new', text: t`Swaps made as a guest earn reward credits you can claim for 30 days after signing up or logging in.` },
        { kind: 'new', text: t`Signing in redeems pending claims automatically and tells you how many credits were added.` },
        { kind: 'improved', text: t`Expired or already used claims are cleaned up from your browser on their own.` },
      ],
    },
    {
      version: '1.1.0',
      date: '2026-09-29',
      title: t`Discord and Telegram`,
      changes: [
        { kind: 'new', text: t`Connect and disconnect your Discord and Telegram accounts from Settings.` },
        { kind: 'security', text: t`A chat account can now be linked to only one Olympus account.` },
        { kind: 'fixed', text: t`Failed connections show the reason and return you to Settings after three seconds.` },
      ],
    },
    {
      version: '1.0.1',
      date: '2026-09-10',
      title: t`Session fixes`,
      changes: [
        { kind: 'security', text: t`Logging out or changing your password now ends that session on every device within a second.` },
        { kind: 'fixed', text: t`Sessions are refreshed five minutes before they expire instead of failing mid-request.` },
        { kind: 'fixed', text: t`Guest support tickets no longer ask guests to log in.` },
      ],
    },
    {
      version: '1.0.0',
      date: '2026-09-01',
      title: t`Olympus launches`,
      changes: [
        { kind: 'new', text: t`Top up credits in cryptocurrency through NOWPayments, with a QR code and live payment status.` },
        { kind: 'new', text: t`Support tickets for guests and registered users.` },
        { kind: 'new', text: t`Continue as a guest, or register with a username and password.` },
      ],
    },
  ];
}
