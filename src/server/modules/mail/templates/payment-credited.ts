import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export function paymentCreditedMail(
  tr: Translator,
  input: {
    username: string;
    amountPaid: string;
    fee: string;
    credits: string;
    currency: string;
    url: string;
    unsubscribeUrl: string;
  },
): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Payment credited: {credits} credits', { credits: input.credits }),
      heading: tr.t(/*i18n*/ 'Your payment was credited'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, your payment arrived and the credits are in your balance.', { username: input.username }),
        },
        {
          kind: 'facts',
          rows: [
            [
              tr.t(/*i18n*/ 'Amount paid'),
              tr.t(/*i18n*/ '{amount} USD (in {currency})', { amount: input.amountPaid, currency: input.currency }),
            ],
            [tr.t(/*i18n*/ 'Processing fee'), tr.t(/*i18n*/ '{amount} USD', { amount: input.fee })],
            [tr.t(/*i18n*/ 'Credits received'), input.credits],
          ],
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'See the payment'), url: input.url },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because payment notifications are on in your settings.'),
      unsubscribeUrl: input.unsubscribeUrl,
    },
    tr,
  );
}
