import { renderMail, type RenderedMail } from './layout.js';

/** Sent once when five days of failed deliveries turn a user's webhook off (decision 0180). */
export function webhookDisabledMail(input: {
  username: string;
  url: string;
  failingSince: string;
  lastError: string | null;
  settingsUrl: string;
}): RenderedMail {
  return renderMail({
    subject: 'Your Olympus webhook was turned off',
    heading: 'Your webhook was turned off',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, every delivery to your webhook has failed for five days, so Olympus stopped sending to it.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Webhook URL', input.url],
          ['Failing since', input.failingSince],
          ['Last error', input.lastError ?? 'unknown'],
        ],
      },
      {
        kind: 'p',
        text: 'Fix the receiver, then turn the webhook on again in your settings. Failed deliveries can be replayed from the delivery log.',
      },
      { kind: 'button', label: 'Open webhook settings', url: input.settingsUrl },
    ],
    reason: 'This is a notice about your account; it is always sent.',
  });
}
