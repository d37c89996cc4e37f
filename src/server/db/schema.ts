// Every table of every module, for the ORM and drizzle-kit. Each module owns its own tables file.
export * from '../modules/users/users.tables.js';
export * from '../modules/auth/sessions.tables.js';
export * from '../modules/rate-limit/rate-limit.tables.js';
export * from '../modules/credits/credits.tables.js';
export * from '../modules/payments/payments.tables.js';
export * from '../modules/payments/payments-sandbox.tables.js';
export * from '../modules/tickets/tickets.tables.js';
export * from '../modules/connections/connections.tables.js';
export * from '../modules/connections/discord-sandbox.tables.js';
export * from '../modules/admin/audit.tables.js';
export * from '../modules/ads/ads.tables.js';
export * from '../modules/status/status.tables.js';
export * from '../modules/exchange/exchange.tables.js';
export * from '../modules/exchange/swap-sandbox.tables.js';
export * from '../modules/webhooks/webhooks.tables.js';
export * from '../modules/payments/payment-events.tables.js';
export * from '../modules/mail/mail.tables.js';
