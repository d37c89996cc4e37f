import { renderMail, type RenderedMail } from './layout.js';

export function paymentCreditedMail(input: {
  username: string;
  amountPaid: string;
  fee: string;
  credits: string;
  currency: string;
  url: string;
  unsubscribeUrl: string;
}): RenderedMail {
  return renderMail({
    subject: `Payment credited: ${input.credits} credits`,
    heading: 'Your payment was credited',
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, your payment arrived and the credits are in your balance.` },
      {
        kind: 'facts',
        rows: [
          ['Amount paid', `${input.amountPaid} USD (in ${input.currency})`],
          ['Processing fee', `${input.fee} USD`],
          ['Credits received', input.credits],
        ],
      },
      { kind: 'button', label: 'See the payment', url: input.url },
    ],
    reason: 'You receive this because payment notifications are on in your settings.',
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
