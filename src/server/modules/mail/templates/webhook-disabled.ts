import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/** Sent once when five days of failed deliveries turn a user's webhook off (decision 0180). */
export function webhookDisabledMail(
  tr: Translator,
  input: {
    username: string;
    url: string;
    failingSince: Date;
    lastError: string | null;
    settingsUrl: string;
  },
): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your Olympus webhook was turned off'),
      heading: tr.t(/*i18n*/ 'Your webhook was turned off'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, every delivery to your webhook has failed for five days, so Olympus stopped sending to it.',
            { username: input.username },
          ),
        },
        {
          kind: 'facts',
          rows: [
            [tr.t(/*i18n*/ 'Webhook URL'), input.url],
            [tr.t(/*i18n*/ 'Failing since'), tr.dateTime(input.failingSince)],
            [tr.t(/*i18n*/ 'Last error'), input.lastError ?? tr.t(/*i18n*/ 'unknown')],
          ],
        },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Fix the receiver, then turn the webhook on again in your settings. Failed deliveries can be replayed from the delivery log.',
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Open webhook settings'), url: input.settingsUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a notice about your account; it is always sent.'),
    },
    tr,
  );
}
