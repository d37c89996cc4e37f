import { renderMail, type RenderedMail } from './layout.js';

export type OrderMailEvent = 'paid' | 'fulfilled' | 'refunded';

const TEXT: Record<OrderMailEvent, { subject: (item: string) => string; heading: string; intro: string }> = {
  paid: {
    subject: (item) => `Order confirmed: ${item}`,
    heading: 'Thank you for your order',
    intro: 'your order is paid with your credits.',
  },
  fulfilled: {
    subject: (item) => `Order fulfilled: ${item}`,
    heading: 'Your order was fulfilled',
    intro: 'your order has been fulfilled.',
  },
  refunded: {
    subject: (item) => `Order refunded: ${item}`,
    heading: 'Your order was refunded',
    intro: 'your order was refunded and the credits are back in your balance.',
  },
};

export function orderUpdateMail(input: {
  event: OrderMailEvent;
  username: string;
  itemName: string;
  credits: string;
  orderId: string;
  ledgerReference: string;
  url: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const text = TEXT[input.event];
  return renderMail({
    subject: text.subject(input.itemName),
    heading: text.heading,
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, ${text.intro}` },
      {
        kind: 'facts',
        rows: [
          ['Item', input.itemName],
          [input.event === 'refunded' ? 'Credits returned' : 'Price', `${input.credits} credits`],
          ['Order', input.orderId],
          ['Ledger reference', input.ledgerReference],
        ],
      },
      { kind: 'button', label: 'See your orders', url: input.url },
    ],
    reason: 'You receive this because order notifications are on in your settings.',
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
