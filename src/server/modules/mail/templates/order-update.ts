import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export type OrderMailEvent = 'paid' | 'fulfilled' | 'refunded';

type Text = { subject: (item: string) => string; heading: string; intro: (username: string) => string };

const TEXT: Record<OrderMailEvent, (tr: Translator) => Text> = {
  paid: (tr) => ({
    subject: (item) => tr.t(/*i18n*/ 'Order confirmed: {item}', { item }),
    heading: tr.t(/*i18n*/ 'Thank you for your order'),
    intro: (username) => tr.t(/*i18n*/ 'Hello {username}, your order is paid with your credits.', { username }),
  }),
  fulfilled: (tr) => ({
    subject: (item) => tr.t(/*i18n*/ 'Order fulfilled: {item}', { item }),
    heading: tr.t(/*i18n*/ 'Your order was fulfilled'),
    intro: (username) => tr.t(/*i18n*/ 'Hello {username}, your order has been fulfilled.', { username }),
  }),
  refunded: (tr) => ({
    subject: (item) => tr.t(/*i18n*/ 'Order refunded: {item}', { item }),
    heading: tr.t(/*i18n*/ 'Your order was refunded'),
    intro: (username) => tr.t(/*i18n*/ 'Hello {username}, your order was refunded and the credits are back in your balance.', { username }),
  }),
};

export function orderUpdateMail(
  tr: Translator,
  input: {
    event: OrderMailEvent;
    username: string;
    itemName: string;
    credits: string;
    orderId: string;
    ledgerReference: string;
    url: string;
    unsubscribeUrl: string;
  },
): RenderedMail {
  const text = TEXT[input.event](tr);
  return renderMail(
    {
      subject: text.subject(input.itemName),
      heading: text.heading,
      blocks: [
        { kind: 'p', text: text.intro(input.username) },
        {
          kind: 'facts',
          rows: [
            [tr.t(/*i18n*/ 'Item'), input.itemName],
            [
              input.event === 'refunded' ? tr.t(/*i18n*/ 'Credits returned') : tr.t(/*i18n*/ 'Price'),
              tr.t(/*i18n*/ '{credits} credits', { credits: input.credits }),
            ],
            [tr.t(/*i18n*/ 'Order'), input.orderId],
            [tr.t(/*i18n*/ 'Ledger reference'), input.ledgerReference],
          ],
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'See your orders'), url: input.url },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because order notifications are on in your settings.'),
      unsubscribeUrl: input.unsubscribeUrl,
    },
    tr,
  );
}
