/**
 * The exchange statuses as plain values, without zod: the browser's first render (the exchange panel
 * on the home page) needs them, and importing them from the schema file would load zod with it.
 * `schemas/exchange.ts` re-exports them.
 */

/** The swap provider's statuses (ChangeNOW-style), in the order an exchange moves through them. */
export const EXCHANGE_STATUSES = [
  'new',
  'waiting',
  'confirming',
  'exchanging',
  'sending',
  'verifying',
  'finished',
  'failed',
  'refunded',
  'expired',
] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];

/** After these nothing more happens to an exchange (the status poller stops asking). */
export const FINAL_EXCHANGE_STATUSES: readonly ExchangeStatus[] = ['finished', 'failed', 'refunded', 'expired'];
