import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, startGuest, TEST_PASSWORD, uniqueName } from '../http.js';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';
import {
  createCallers,
  createResources,
  ETH_ADDRESS,
  jobsDone,
  rowCounts,
  settle,
  type Callers,
  type Resources,
} from '../fixtures/bad-input.js';
import { setRole } from '#server/modules/users/users.service.js';

/**
 * The deterministic mutation suite (decision 0110): for every operation of the OpenAPI document, for every
 * field of its body, query string and path, with every other field valid and an authorized caller,
 * each mutation of a fixed list. No answer is a 5xx; an error answer is `{ error, code }`; a mutation
 * that breaks the contract (wrong JSON type, control character, lone surrogate, oversized body,
 * prototype-pollution key) is refused with a 4xx, and a type or text mutation of a body field with a
 * 400 that names the field; a refused request stores nothing (row counts before and after); and no
 * object prototype is polluted. Other mutations (empty, negative...) may be valid input: any answer
 * but a 5xx. The table of expectations is `expectation()` below; decision 0110 explains it.
 */

type Part = 'body' | 'query' | 'path';

/** An automation rule that never matches (decision 0294), switched off. */
const MUTATION_RULE = {
  name: 'Mutation rule',
  enabled: false,
  trigger: { type: 'ticket_created' },
  conditions: [{ type: 'subject_contains', text: 'mutation-never-matches' }],
  actions: [{ type: 'add_tag', tag: 'mutation' }],
};

/** A campaign window that is valid whenever the suite runs (at most 366 days), the same for every request of a run. */
const CAMPAIGN_STARTS_AT = new Date().toISOString();
const CAMPAIGN_ENDS_AT = new Date(Date.now() + 300 * 86_400_000).toISOString();
/** `apiKey`: the charge API's caller, an API key made by the admin (docs/decisions/0165). */
type Caller = 'anonymous' | 'guest' | 'user' | 'admin' | 'apiKey';

const MUTATIONS = [
  'nul',
  'lone-surrogate',
  'array',
  'object',
  'null',
  'boolean',
  'type-swap',
  'empty',
  '100kb',
  'negative',
  '1e309',
  '__proto__',
  'constructor',
] as const;
type Mutation = (typeof MUTATIONS)[number];

interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number | boolean;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  default?: unknown;
  $ref?: string;
}

interface Operation {
  method: string;
  path: string;
  key: string;
  params: Array<{ in: string; name: string; schema: JsonSchema }>;
  body: JsonSchema | null;
}

/** A valid request for an operation, built by hand where a valid value needs real data. */
interface Base {
  caller?: Caller;
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /** Request headers the operation needs (the Idempotency-Key of orders and the charge API). */
  headers?: Record<string, string>;
}

interface Fixtures extends Resources {
  callers: Callers;
}

/** Valid requests where the schema alone cannot make one (real ids, cross-field rules, no side effects worth avoiding). */
const BASES: Record<string, (f: Fixtures) => Base> = {
  'POST /api/register': () => {
    const username = uniqueName('mut');
    return { caller: 'anonymous', body: { username, email: `${username}@example.com`, password: TEST_PASSWORD, turnstileToken: 'ok' } };
  },
  'POST /api/login': (f) => ({
    caller: 'anonymous',
    body: { username: f.callers.user.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
  }),
  // Never a valid session id: the base must not end a session the suite relies on.
  'DELETE /api/auth/sessions/{id}': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' } }),
  'GET /api/users/{id}/credits': (f) => ({ path: { id: f.callers.user.userId } }),
  'PUT /api/onboarding': () => ({ body: { completed: true } }),
  // A wrong current password: the shape is valid, the change is refused, so no mutation changes it.
  'POST /api/users/change-password': () => ({ body: { currentPassword: 'not the password 1', newPassword: 'another long passphrase 7' } }),
  // Closing an account: a wrong password (nothing closes); restoring: wrong credentials; erasing: an open account (404).
  'DELETE /api/users/me': () => ({ body: { password: 'not the password 1', acknowledgeForfeitedCents: 0 } }),
  'POST /api/auth/restore-account': (f) => ({
    caller: 'anonymous',
    body: { username: f.callers.user.username, password: 'not the password 1' },
  }),
  'POST /api/admin/account-closures/{id}/erase': (f) => ({ path: { id: f.targetId }, body: { confirmUsername: 'not-the-name' } }),
  'POST /api/auth/discord-exchange': () => ({ body: { code: 'not-a-code', state: 'not-a-state' } }),
  'POST /api/users/connect/discord': () => ({ body: { discordId: '123456789012345678', username: 'someone', avatar: null } }),
  'POST /api/auth/verify-telegram': () => ({ body: { id: '12345', first_name: 'Ann', auth_date: '1700000000', hash: 'abcdef' } }),
  'POST /api/users/connect/telegram': () => ({ body: { telegramId: '12345', username: 'ann' } }),
  'POST /api/tickets/guest': () => ({ body: { subject: 'Mutation guest', message: 'A guest question.', category: 'general' } }),
  'GET /api/tickets/guest/{id}': (f) => ({ path: { id: f.guestTicketId } }),
  'PUT /api/tickets/guest/{id}': (f) => ({ path: { id: f.guestTicketId }, body: { status: 'open' } }),
  'POST /api/tickets/guest/{id}/messages': (f) => ({ path: { id: f.guestTicketId }, body: { message: 'One more detail.' } }),
  'POST /api/tickets': () => ({ body: { subject: 'Mutation user', message: 'A user question.', category: 'general' } }),
  'GET /api/tickets/{id}': (f) => ({ path: { id: f.ticketId } }),
  'PUT /api/tickets/{id}': (f) => ({ path: { id: f.ticketId }, body: { status: 'open' } }),
  'POST /api/tickets/{id}/messages': (f) => ({ path: { id: f.ticketId }, body: { message: 'One more detail.' } }),
  'GET /api/help/articles': () => ({ caller: 'anonymous', query: { q: 'payment', category: 'Fixtures' } }),
  'GET /api/help/articles/{slug}': () => ({ caller: 'anonymous', path: { slug: 'fixture-article' } }),
  'POST /api/help/articles/{slug}/vote': () => ({ caller: 'anonymous', path: { slug: 'fixture-article' }, body: { helpful: true } }),
  'GET /api/help/suggestions': () => ({ query: { q: 'payment' } }),
  'POST /api/help/deflections': () => ({ body: { slug: 'fixture-article' } }),
  'GET /api/staff/help/articles/{id}': (f) => ({ path: { id: f.helpArticleId } }),
  'POST /api/staff/help/articles': () => ({
    body: { slug: 'mutation-article', title: 'Mutation article', category: 'Fixtures', body: 'Mutation.', status: 'draft' },
  }),
  'PUT /api/staff/help/articles/{id}': (f) => ({
    path: { id: f.helpArticleId },
    body: {
      slug: 'fixture-article',
      title: 'Fixture article',
      category: 'Fixtures',
      body: 'A fixture about payments.',
      status: 'published',
    },
  }),
  'POST /api/staff/help/preview': () => ({ body: { body: '**Preview**' } }),
  'GET /api/staff/help/articles/{id}/translations': (f) => ({ path: { id: f.helpArticleId } }),
  'PUT /api/staff/help/articles/{id}/translations/{locale}': (f) => ({
    path: { id: f.helpArticleId, locale: 'de' },
    body: { title: 'Fixture-Artikel', body: 'Mutation.' },
  }),
  'DELETE /api/staff/help/articles/{id}/translations/{locale}': (f) => ({ path: { id: f.helpArticleId, locale: 'ru' } }),
  'GET /api/staff/tickets/{id}/requester': (f) => ({ path: { id: f.ticketId } }),
  'GET /api/staff/tickets/{id}': (f) => ({ path: { id: f.ticketId } }),
  'PUT /api/staff/tickets/{id}': (f) => ({ path: { id: f.ticketId }, body: { priority: 'high' } }),
  'POST /api/staff/tickets/{id}/messages': (f) => ({ path: { id: f.ticketId }, body: { message: 'We are on it.' } }),
  // Support desk: the fixture ticket is open (a rating is refused after validation), a merge into itself
  // is refused, and no canned reply has the zero id (404 after validation).
  'POST /api/tickets/guest/{id}/rating': (f) => ({ path: { id: f.guestTicketId }, body: { score: 5, comment: 'Fine.' } }),
  'POST /api/tickets/{id}/rating': (f) => ({ path: { id: f.ticketId }, body: { score: 5, comment: 'Fine.' } }),
  'POST /api/staff/tickets/{id}/merge': (f) => ({ path: { id: f.ticketId }, body: { sourceId: f.ticketId } }),
  'POST /api/staff/ticket-replies': () => ({ body: { title: 'Mutation', body: 'A canned answer.' } }),
  'PUT /api/staff/ticket-replies/{id}': () => ({
    path: { id: '00000000-0000-4000-8000-000000000000' },
    body: { title: 'Mutation', body: 'Changed.' },
  }),
  // Uploads take the file as the body (no JSON body to mutate): the query and path are mutated; with no
  // file the answer is a 400. Downloads of an id that does not exist are a 404.
  'POST /api/tickets/guest/{id}/attachments': (f) => ({
    path: { id: f.guestTicketId },
    query: { filename: 'shot.png', note: 'See this.' },
  }),
  'POST /api/tickets/{id}/attachments': (f) => ({ path: { id: f.ticketId }, query: { filename: 'shot.png', note: 'See this.' } }),
  'POST /api/staff/tickets/{id}/attachments': (f) => ({ path: { id: f.ticketId }, query: { filename: 'shot.png', note: 'See this.' } }),
  'GET /api/tickets/guest/{id}/attachments/{attachmentId}': (f) => ({
    path: { id: f.guestTicketId, attachmentId: '00000000-0000-4000-8000-000000000000' },
  }),
  'GET /api/tickets/{id}/attachments/{attachmentId}': (f) => ({
    path: { id: f.ticketId, attachmentId: '00000000-0000-4000-8000-000000000000' },
  }),
  'GET /api/staff/tickets/{id}/attachments/{attachmentId}': (f) => ({
    path: { id: f.ticketId, attachmentId: '00000000-0000-4000-8000-000000000000' },
  }),
  'DELETE /api/staff/ticket-replies/{id}': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' } }),
  // Business hours and SLA targets (decision 0293).
  'PUT /api/staff/support/sla/calendar': () => ({
    body: { timeZone: 'Europe/Berlin', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' },
  }),
  'POST /api/staff/support/sla/holidays': () => ({ body: { day: '2041-05-01', name: 'Mutation holiday' } }),
  'DELETE /api/staff/support/sla/holidays/{day}': () => ({ path: { day: '2041-05-02' } }),
  'PUT /api/staff/support/sla/targets': () => ({
    body: { targets: [{ priority: 'low', firstResponseMinutes: 960, resolutionMinutes: 4800 }] },
  }),
  'PUT /api/staff/tickets/{id}/tags': (f) => ({ path: { id: f.ticketId }, body: { tags: ['mutation'] } }),
  'POST /api/staff/support-rules': () => ({ body: MUTATION_RULE }),
  'PUT /api/staff/support-rules/{id}': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' }, body: MUTATION_RULE }),
  'PUT /api/staff/support-rules/{id}/enabled': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' }, body: { enabled: false } }),
  'DELETE /api/staff/support-rules/{id}': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' } }),
  'PUT /api/staff/support-settings/auto-close': () => ({ body: { autoCloseDays: 7 } }),
  'GET /api/admin/users/{id}': (f) => ({ path: { id: f.targetId } }),
  'GET /api/admin/users/{id}/ledger': (f) => ({ path: { id: f.targetId } }),
  'PUT /api/admin/users/{id}/role': (f) => ({ path: { id: f.targetId }, body: { role: 'user' } }),
  'PUT /api/admin/users/{id}/disabled': (f) => ({ path: { id: f.targetId }, body: { disabled: false, reason: 'mutation check' } }),
  'POST /api/admin/credits/adjustments': (f) => ({ body: { userId: f.targetId, amount: 1, reason: 'mutation check' } }),
  'POST /api/payments/deposit': () => ({ body: { crypto: 'btc', amount: 20 } }),
  'POST /api/payments/check': (f) => ({ body: { orderId: f.paymentId, txHash: 'ab12cd34ef56ab78' } }),
  'GET /api/payments/{id}/status': (f) => ({ path: { id: f.paymentId } }),
  'GET /api/payments/{id}': (f) => ({ path: { id: f.paymentId } }),
  'GET /api/exchange/estimate': () => ({ caller: 'anonymous', query: { from: 'btc', to: 'eth', amount: '0.01', rateType: 'fixed' } }),
  'GET /api/exchange/range': () => ({ caller: 'anonymous', query: { from: 'btc', to: 'eth', rateType: 'fixed' } }),
  'POST /api/exchange/exchanges': () => ({ body: { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS } }),
  'GET /api/exchange/exchanges/{id}': (f) => ({ path: { id: f.exchangeId } }),
  'POST /api/exchange/guest-rewards-status': () => ({ caller: 'anonymous', body: { claims: [] } }),
  'POST /api/exchange/claim-guest-rewards': (f) => ({ body: { claims: [], userId: f.callers.user.userId } }),
  'GET /api/admin/payments/{id}': (f) => ({ path: { id: f.paymentId } }),
  'POST /api/admin/payments/{id}/recheck': (f) => ({ path: { id: f.paymentId } }),
  'GET /api/admin/exchanges/{id}': (f) => ({ path: { id: f.exchangeId } }),
  'POST /api/admin/exchanges/{id}/recheck': (f) => ({ path: { id: f.exchangeId } }),
  'GET /api/ads': () => ({ caller: 'anonymous', query: { placement: 'home-banner' } }),
  'POST /api/ads/{id}/impression': (f) => ({ caller: 'anonymous', path: { id: f.adId } }),
  'GET /api/ads/{id}/click': (f) => ({ caller: 'anonymous', path: { id: f.adId } }),
  'GET /api/ads/images/{id}': () => ({ caller: 'anonymous', path: { id: '00000000-0000-4000-8000-000000000303' } }),
  'POST /api/staff/ads': () => ({ body: { placement: 'patch-notes', title: 'Mutation ad', targetUrl: 'https://example.com/' } }),
  'PUT /api/staff/ads/{id}': (f) => ({ path: { id: f.adId }, body: { weight: 2 } }),
  // One request id for every mutation: the base reserves at most once; a changed body with it is refused (409).
  'POST /api/ad-campaigns': () => ({
    body: {
      requestId: '00000000-0000-4000-8000-00000000ad01',
      name: 'Mutation campaign',
      placements: ['patch-notes'],
      startsAt: CAMPAIGN_STARTS_AT,
      endsAt: CAMPAIGN_ENDS_AT,
      priceModel: 'cpm',
      priceCents: 1000,
      budgetCents: 500,
      creatives: [{ title: 'Mutation creative', targetUrl: 'https://example.com/' }],
    },
  }),
  'GET /api/ad-campaigns/{id}': (f) => ({ path: { id: f.campaignId } }),
  'GET /api/ad-campaigns/{id}/report': (f) => ({ path: { id: f.campaignId }, query: { days: '7' } }),
  'GET /api/ad-campaigns/{id}/report.csv': (f) => ({ path: { id: f.campaignId }, query: { days: '7' } }),
  'POST /api/ad-campaigns/{id}/pause': (f) => ({ path: { id: f.campaignId } }),
  'POST /api/ad-campaigns/{id}/resume': (f) => ({ path: { id: f.campaignId } }),
  'POST /api/ad-campaigns/{id}/stop': (f) => ({ path: { id: f.campaignId } }),
  'PUT /api/ad-campaigns/{id}/creatives/{creativeId}': (f) => ({
    path: { id: f.campaignId, creativeId: f.creativeId },
    body: { title: 'Mutation creative', targetUrl: 'https://example.com/' },
  }),
  // A house campaign (decision 0283): one request id, so the base creates at most one.
  'POST /api/staff/ad-campaigns': () => ({
    body: {
      requestId: '00000000-0000-4000-8000-00000000ad02',
      name: 'Mutation house campaign',
      placements: ['patch-notes'],
      startsAt: CAMPAIGN_STARTS_AT,
      endsAt: CAMPAIGN_ENDS_AT,
      priceModel: 'cpm',
      priceCents: 1000,
      budgetCents: null,
      creatives: [{ title: 'Mutation creative', targetUrl: 'https://example.com/' }],
    },
  }),
  // The fixture's campaign is a paid one: the house routes answer 404 for it and change nothing.
  'POST /api/staff/ad-campaigns/{id}/pause': (f) => ({ path: { id: f.campaignId } }),
  'POST /api/staff/ad-campaigns/{id}/resume': (f) => ({ path: { id: f.campaignId } }),
  'POST /api/staff/ad-campaigns/{id}/stop': (f) => ({ path: { id: f.campaignId } }),
  'GET /api/staff/ad-campaigns/{id}/report': (f) => ({ path: { id: f.campaignId }, query: { days: '7' } }),
  'GET /api/staff/ad-campaigns/{id}/report.csv': (f) => ({ path: { id: f.campaignId }, query: { days: '7' } }),
  'POST /api/staff/ad-reviews/{id}/approve': (f) => ({ path: { id: f.creativeId } }),
  'POST /api/staff/ad-reviews/{id}/reject': (f) => ({ path: { id: f.creativeId }, body: { reason: 'Mutation rejection' } }),
  'POST /api/status/incidents': () => ({ body: { title: 'Mutation incident', message: 'Looking into it.' } }),
  'PUT /api/status/incidents/{id}': (f) => ({ path: { id: f.incidentId }, body: { message: 'Still looking.' } }),
  'POST /api/status/maintenance': () => ({
    body: {
      title: 'Mutation maintenance',
      description: 'Database upgrade.',
      startsAt: '2030-01-01T10:00:00.000Z',
      endsAt: '2030-01-01T11:00:00.000Z',
    },
  }),
  'PUT /api/status/maintenance/{id}': (f) => ({
    path: { id: f.maintenanceId },
    body: {
      title: 'Mutation maintenance',
      description: 'Changed.',
      startsAt: '2030-01-01T10:00:00.000Z',
      endsAt: '2030-01-01T12:00:00.000Z',
    },
  }),
  // Cancelled by the base request: every later (mutated) request is refused, as a second cancel is (409).
  'POST /api/status/maintenance/{id}/cancel': (f) => ({ path: { id: f.cancellableMaintenanceId } }),
  'GET /api/status/feed.atom': () => ({ caller: 'anonymous' }),
  'POST /api/status/subscriptions': () => ({ caller: 'anonymous', body: { email: 'mutation-status@example.com' } }),
  'POST /api/status/subscriptions/confirm': () => ({ caller: 'anonymous', body: { token: 'not-a-token' } }),
  'POST /api/status/subscriptions/unsubscribe': () => ({ caller: 'anonymous', body: { token: 'not-a-token' } }),
  'GET /api/status/subscriptions/unsubscribe': () => ({ caller: 'anonymous', query: { token: 'not-a-token' } }),
  // A private address (allowed in this app): the suite has no DNS to resolve a public host.
  'PUT /api/users/webhook-settings': () => ({ body: { url: 'http://127.0.0.1:9/hook', events: [], enabled: false } }),
  // No webhook and no such delivery: refused (404) whatever the mutation, and nothing is sent.
  'POST /api/users/webhook-settings/enable': () => ({}),
  'POST /api/users/webhook-deliveries/{id}/replay': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' } }),
  // Mail flows: an address nobody has (the answer is the same either way), a wrong current password.
  'POST /api/auth/forgot-password': () => ({ caller: 'anonymous', body: { email: 'nobody-here@example.com' } }),
  'PUT /api/users/email': () => ({ body: { email: `${uniqueName('mut')}@example.com`, currentPassword: 'not the password 1' } }),
  // Two-factor: well-formed codes that are not right (no authenticator is on), an unknown challenge.
  'POST /api/auth/2fa/totp/enable': () => ({ body: { code: '123456' } }),
  // Catalogue and orders: one key for every mutation, so a valid purchase buys once and repeats answer it.
  'POST /api/orders': (f) => ({
    body: { itemId: f.catalogueItemId, expectedPriceCents: 1 },
    headers: { 'idempotency-key': 'mutation-suite-order' },
  }),
  'GET /api/orders/{id}': (f) => ({ path: { id: f.orderId } }),
  'POST /api/admin/catalogue': () => ({ body: { name: 'Mutation item', description: 'Mutation check', priceCents: 100, stock: null } }),
  'PUT /api/admin/catalogue/{id}': (f) => ({ path: { id: f.catalogueItemId }, body: { description: 'Mutation check' } }),
  'POST /api/admin/orders/{id}/fulfil': (f) => ({ path: { id: f.orderId } }),
  'POST /api/admin/orders/{id}/refund': (f) => ({ path: { id: f.orderId } }),
  'POST /api/login/2fa': () => ({ caller: 'anonymous', body: { challenge: 'not-a-challenge', code: '123456' } }),
  // Charge API: one Idempotency-Key for every request, so the base charges once and each mutation is a
  // refusal (400) or a reuse of the key with another body (409); never a second charge.
  'POST /api/v1/charges': (f) => ({
    headers: { 'idempotency-key': 'mutation-suite' },
    body: { userId: f.callers.user.userId, amountCents: 1, description: 'Mutation charge' },
  }),
  'GET /api/v1/charges/{id}': (f) => ({ path: { id: f.chargeId } }),
  'POST /api/v1/charges/{id}/refund': (f) => ({ path: { id: f.chargeId } }),
  // Never the suite's own key: the charge API operations need it alive.
  'POST /api/admin/api-keys/{id}/revoke': () => ({ path: { id: '00000000-0000-4000-8000-000000000000' } }),
  'GET /api/credits/ledger/{id}/receipt': (f) => ({ path: { id: f.ledgerEntryId } }),
  'GET /api/credits/ledger.csv': () => ({ query: { from: '2026-01-01', to: '2026-12-31' } }),
  'GET /api/staff/support/report': () => ({ query: { from: '2026-01-01', to: '2026-01-31' } }),
  'GET /api/staff/support/report.csv': () => ({ query: { from: '2026-01-01', to: '2026-01-31' } }),
  'GET /api/users/me/exports/{id}': (f) => ({ path: { id: f.exportId } }),
  'GET /api/users/me/exports/{id}/download': (f) => ({ path: { id: f.exportId } }),
  // The stream answers its one event and ends (no Accept: text/event-stream here).
  'GET /api/notifications/stream': () => ({ query: { timeout: '0' } }),
  'POST /api/notifications/read': () => ({ body: { all: true } }),
};

/** Who calls an operation: staff routes as an admin, guest-only routes as a guest, the rest as a user. */
function defaultCaller(path: string): Caller {
  if (path.startsWith('/api/v1/')) return 'apiKey';
  if (/^\/api\/(admin|staff)\//.test(path) || /^\/api\/status\/(incidents|checks|maintenance)/.test(path)) return 'admin';
  if (path.startsWith('/api/tickets/guest')) return 'guest';
  return 'user';
}

// ---- Valid values from the schema -------------------------------------------------------------------

function resolve(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): JsonSchema {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = components[s.$ref.split('/').pop()!] ?? {};
  return s;
}

/** The JSON types a field accepts; null when it accepts anything (no type stated). */
function allowedTypes(schema: JsonSchema, components: Record<string, JsonSchema>): Set<string> | null {
  const s = resolve(schema, components);
  const out = new Set<string>();
  const variants = s.anyOf ?? s.oneOf;
  if (variants) {
    for (const v of variants) {
      const inner = allowedTypes(v, components);
      if (!inner) return null;
      for (const x of inner) out.add(x);
    }
  } else if (s.type) {
    for (const t of Array.isArray(s.type) ? s.type : [s.type]) out.add(t === 'integer' ? 'number' : t);
  } else if (s.enum) {
    for (const v of s.enum) out.add(jsonType(v));
  } else if (s.const !== undefined) {
    out.add(jsonType(s.const));
  } else {
    return null;
  }
  if (s.nullable) out.add('null');
  return out;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v === 'object' ? 'object' : typeof v;
}

const STRING_CANDIDATES = [
  'valid text',
  'valid',
  'abc123',
  'btc',
  '123456',
  `g_${'a'.repeat(32)}`,
  'https://example.com/',
  'ab12cd34ef56ab78',
];

function validValue(schema: JsonSchema, components: Record<string, JsonSchema>): unknown {
  const s = resolve(schema, components);
  if (s.default !== undefined) return s.default;
  if (s.enum?.length) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const variants = s.anyOf ?? s.oneOf;
  if (variants?.length) return validValue(variants[0]!, components);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== 'null') : s.type;
  switch (type) {
    case 'string': {
      if (s.format === 'uuid' || s.pattern?.includes('[0-9a-f]{8}')) return '00000000-0000-4000-8000-000000000000';
      if (s.format === 'email') return 'someone@example.com';
      if (s.format === 'date') return '2026-01-01';
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'uri') return 'https://example.com/';
      const fits = (v: string) =>
        v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity) && (!s.pattern || new RegExp(s.pattern).test(v));
      return STRING_CANDIDATES.find(fits) ?? 'x'.repeat(Math.max(1, s.minLength ?? 1));
    }
    case 'integer':
    case 'number':
      return Math.max(1, typeof s.minimum === 'number' ? s.minimum : 1);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = validValue(s.properties?.[name] ?? {}, components);
      return out;
    }
    default:
      return 'valid';
  }
}

// ---- Mutations --------------------------------------------------------------------------------------

const HUNDRED_KB = 'x'.repeat(100_000);
const POLLUTION: Record<'__proto__' | 'constructor', string> = {
  ['__proto__' as string]: '{"__proto__":{"polluted":true}}',
  constructor: '{"constructor":{"prototype":{"polluted":true}}}',
} as Record<'__proto__' | 'constructor', string>;

/** The raw JSON text a body field gets for a mutation of its valid value. */
function bodyText(m: Mutation, valid: unknown): string {
  const text = typeof valid === 'string' ? valid : (JSON.stringify(valid) ?? 'null');
  const middle = Math.floor(text.length / 2);
  switch (m) {
    case 'nul':
      return JSON.stringify(`${text.slice(0, middle)}\u0000${text.slice(middle)}`);
    case 'lone-surrogate':
      return JSON.stringify(`${text.slice(0, middle)}\ud800${text.slice(middle)}`);
    case 'array':
      return `[${JSON.stringify(valid) ?? 'null'}]`;
    case 'object':
      return `{"value":${JSON.stringify(valid) ?? 'null'}}`;
    case 'null':
      return 'null';
    case 'boolean':
      return typeof valid === 'boolean' ? String(!valid) : 'true';
    case 'type-swap':
      if (typeof valid === 'number') return JSON.stringify(String(valid));
      if (typeof valid === 'string') return Number.isFinite(Number(valid)) && valid.trim() !== '' ? String(Number(valid)) : '42';
      return JSON.stringify(text);
    case 'empty':
      return Array.isArray(valid) ? '[]' : valid !== null && typeof valid === 'object' ? '{}' : '""';
    case '100kb':
      return JSON.stringify(HUNDRED_KB);
    case 'negative':
      return typeof valid === 'number' ? String(-Math.abs(valid) - 1) : '-1';
    case '1e309':
      return '1e309';
    case '__proto__':
    case 'constructor':
      return POLLUTION[m];
  }
}

/** The raw (already encoded) query or path text for a mutation; `repeat` sends the key twice. */
function textValue(m: Mutation, valid: string): { raw: string; repeat?: boolean; key?: string } {
  const enc = encodeURIComponent;
  const middle = Math.floor(valid.length / 2);
  switch (m) {
    case 'nul':
      return { raw: `${enc(valid.slice(0, middle))}%00${enc(valid.slice(middle))}` };
    case 'lone-surrogate':
      // What a client that encodes a lone surrogate (CESU-8) sends; the URL decoder replaces or refuses it.
      return { raw: `${enc(valid)}%ED%A0%80` };
    case 'array':
      return { raw: enc(valid), repeat: true };
    case 'object':
      return { raw: enc(valid), key: '[a]' };
    case 'null':
      return { raw: 'null' };
    case 'boolean':
      return { raw: 'true' };
    case 'type-swap':
      return { raw: Number.isFinite(Number(valid)) && valid !== '' ? 'abc' : '42' };
    case 'empty':
      return { raw: '' };
    case '100kb':
      return { raw: HUNDRED_KB };
    case 'negative':
      return { raw: Number.isFinite(Number(valid)) && valid !== '' ? String(-Math.abs(Number(valid)) - 1) : '-1' };
    case '1e309':
      return { raw: '1e309' };
    case '__proto__':
    case 'constructor':
      return { raw: enc(valid), key: m };
  }
}

/**
 * What a mutation must get. 'refused': a 4xx; 'named': a 400 that names the field (details.fields);
 * 'any': any answer but a 5xx, because the mutated value may still be valid (an empty optional text, a
 * negative filter) or the URL decoder already made it harmless.
 */
function expectation(part: Part, m: Mutation, types: Set<string> | null): 'named' | 'refused' | 'any' {
  if (part === 'body') {
    if (m === '100kb' || m === '__proto__' || m === 'constructor') return 'refused';
    if (m === 'empty' || m === 'negative') return 'any';
    if (!types) return 'any'; // a field that takes anything (none today)
    if (m === 'nul' || m === 'lone-surrogate' || m === '1e309') return 'named';
    const sent = m === 'array' ? 'array' : m === 'object' ? 'object' : m === 'null' ? 'null' : m === 'boolean' ? 'boolean' : null;
    if (sent) return types.has(sent) ? 'any' : 'named';
    return 'any'; // type-swap: refused unless the contract takes both (checked below with the real value)
  }
  if (m === 'nul') return 'named';
  if (part === 'query' && m === 'array' && !types?.has('array')) return 'named';
  return 'any';
}

/**
 * The payments reconciliation job (every minute) records a payment event, and credits a payment that
 * finished, on its own: such a change alone is not caused by the refused request being checked.
 */
const BACKGROUND_TABLES = new Set(['payment_events', 'credit_ledger_entries']);
const changedTables = (before: Record<string, number>, after: Record<string, number>) =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((n) => before[n] !== after[n]);
const isBackground = (changed: string[]) => changed.includes('payment_events') && changed.every((n) => BACKGROUND_TABLES.has(n));

// ---- The suite --------------------------------------------------------------------------------------

describe.each(enginesFor('sweep'))('the mutation suite on %s', (engine) => {
  let t: TestApp;
  let f: Fixtures;
  let operations: Operation[];
  let components: Record<string, JsonSchema>;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0', WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' });
    const callers = await createCallers(t);
    f = { callers, ...(await createResources(t, callers)) };

    const doc = (await t.app.inject('/api/docs')).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: Operation['params']; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
      >;
      components?: { schemas?: Record<string, JsonSchema> };
    };
    components = doc.components?.schemas ?? {};
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        params: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
      })),
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** A mutation may sign a caller out (disable, role change): give each operation live callers. */
  async function revive() {
    for (const name of ['user', 'admin'] as const) {
      const me = await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${f.callers[name].token}` } });
      if (me.statusCode === 200 && (name === 'user' || me.json().user?.role === 'admin')) continue;
      const fresh = await registerUser(t);
      if (name === 'admin') await setRole(t.database.db, fresh.userId, 'admin');
      f.callers[name] = { ...fresh };
    }
    const guest = f.callers.guest;
    if (
      (await t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${guest.token}`, ...guest.headers } })).statusCode !==
      200
    ) {
      const fresh = await startGuest(t);
      f.callers.guest = { token: fresh.token, guestId: fresh.guestId, headers: { 'guest-id': fresh.guestId } };
    }
  }

  /** The next transaction id the database will hand out: it moves only when something writes. */
  async function nextTransactionId(): Promise<string> {
    const res = await t.database.pool.query<{ x: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x');
    return res.rows[0]!.x;
  }

  function authHeaders(caller: Caller): Record<string, string> {
    if (caller === 'anonymous') return {};
    if (caller === 'apiKey') return { authorization: `Bearer ${f.apiKey}` };
    const c = f.callers[caller];
    return { authorization: `Bearer ${c.token}`, ...(c.headers ?? {}) };
  }

  it('sends every mutation to every field of every documented operation', async () => {
    const problems: string[] = [];
    let fields = 0;
    let requests = 0;
    let accepted = 0;
    const covered = new Set<string>();

    for (const op of operations) {
      await revive();
      const base = BASES[op.key]?.(f) ?? {};
      const caller = base.caller ?? defaultCaller(op.path);
      const bodySchema = op.body ? resolve(op.body, components) : null;
      const baseBody = base.body ?? (bodySchema ? (validValue(bodySchema, components) as Record<string, unknown>) : undefined);
      const pathValues: Record<string, string> = {};
      const queryValues: Record<string, string> = { ...(base.query ?? {}) };
      for (const p of op.params) {
        if (p.in === 'path') pathValues[p.name] = base.path?.[p.name] ?? String(validValue(p.schema, components));
      }

      const targets: Array<{ part: Part; name: string; schema: JsonSchema }> = [
        ...op.params
          .filter((p) => p.in === 'path' || p.in === 'query')
          .map((p) => ({ part: (p.in === 'path' ? 'path' : 'query') as Part, name: p.name, schema: p.schema })),
        ...Object.entries(bodySchema?.properties ?? {}).map(([name, schema]) => ({ part: 'body' as Part, name, schema })),
      ];
      if (targets.length === 0) {
        covered.add(op.key);
        continue;
      }

      const send = async (pathRaw: Record<string, string>, queryRaw: string, body: string | undefined) => {
        const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) => pathRaw[name] ?? encodeURIComponent(pathValues[name] ?? ''));
        const res = await t.app.inject({
          method: op.method as 'GET',
          url: queryRaw ? `${url}?${queryRaw}` : url,
          headers: {
            ...authHeaders(caller),
            ...(base.headers ?? {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { payload: body } : {}),
        });
        requests += 1;
        let json: { error?: unknown; code?: unknown; details?: { fields?: Record<string, string> } } = {};
        try {
          json = res.body ? JSON.parse(res.body) : {};
        } catch {
          json = {};
        }
        return { status: res.statusCode, json, raw: res.body };
      };
      const queryString = (values: Record<string, string>, extra = '') =>
        [...Object.entries(values).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`), ...(extra ? [extra] : [])].join(
          '&',
        );
      const bodyWith = (name: string | null, raw: string | null) => {
        if (baseBody === undefined && name === null) return undefined;
        const rest = Object.entries(baseBody ?? {}).filter(([k]) => k !== name);
        const parts = rest.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
        if (name !== null && raw !== null) parts.push(`${JSON.stringify(name)}:${raw}`);
        return `{${parts.join(',')}}`;
      };

      // The base request must pass validation: otherwise "every other field valid" would not hold.
      const baseline = await send({}, queryString(queryValues), bodyWith(null, null));
      if (baseline.status === 400 && baseline.json.code === 'VALIDATION_ERROR')
        problems.push(`${op.key}: the valid base request was refused: ${baseline.raw.slice(0, 200)}`);
      // Staff changes are audited just after the answer is sent, and jobs an accepted call queued (a
      // notice's mail) write a moment later: let those writes land before counting.
      const quiet = async () => (caller === 'admin' ? settle(t) : jobsDone(t));
      if (baseline.status < 400) await quiet();
      else await jobsDone(t);
      let counts = await rowCounts(t);
      let xmax = await nextTransactionId();

      for (const target of targets) {
        fields += 1;
        const types = allowedTypes(target.schema, components);
        for (const m of MUTATIONS) {
          let res: Awaited<ReturnType<typeof send>>;
          let expected = expectation(target.part, m, types);
          if (target.part === 'body') {
            const valid = baseBody?.[target.name] ?? validValue(target.schema, components);
            const raw = bodyText(m, valid);
            if (m === 'type-swap' && types) {
              const sentType = raw === '1e309' ? 'number' : jsonType(JSON.parse(raw));
              expected = types.has(sentType) ? 'any' : 'named';
            }
            res = await send({}, queryString(queryValues), bodyWith(target.name, raw));
          } else {
            const valid =
              target.part === 'path'
                ? pathValues[target.name]!
                : (queryValues[target.name] ?? String(validValue(target.schema, components)));
            const { raw, repeat, key } = textValue(m, valid);
            if (target.part === 'path') {
              res = await send({ [target.name]: raw === '' ? '%20' : raw }, queryString(queryValues), bodyWith(null, null));
            } else {
              const others = Object.fromEntries(Object.entries(queryValues).filter(([k]) => k !== target.name));
              const name = encodeURIComponent(target.name);
              const pair =
                key === '__proto__' || key === 'constructor'
                  ? `${key}=${raw}&${name}=${raw}`
                  : `${name}${key ? encodeURIComponent(key) : ''}=${raw}`;
              res = await send({}, queryString(others, repeat ? `${pair}&${pair}` : pair), bodyWith(null, null));
            }
          }

          const where = `${op.key} ${target.part}.${target.name} ${m}`;
          if (res.status >= 500) problems.push(`${where}: status ${res.status} ${res.raw.slice(0, 200)}`);
          if (res.status >= 400 && (typeof res.json.error !== 'string' || typeof res.json.code !== 'string'))
            problems.push(`${where}: error answer is not { error, code }: ${res.raw.slice(0, 200)}`);
          if (expected !== 'any' && (res.status < 400 || res.status >= 500))
            problems.push(`${where}: accepted (${res.status}), must be refused`);
          if (expected === 'named' && res.status >= 400 && res.status < 500) {
            const named = Object.keys(res.json.details?.fields ?? {}).some((k) => k === target.name || k.startsWith(`${target.name}.`));
            if (res.status !== 400 || res.json.code !== 'VALIDATION_ERROR' || !named)
              problems.push(`${where}: ${res.status} ${res.raw.slice(0, 200)} does not name the field`);
          }
          if (Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')) problems.push(`${where}: Object.prototype was polluted`);

          if (res.status >= 400) {
            // Fast path: no transaction id was handed out since the last count, so nothing was written.
            const x = await nextTransactionId();
            if (x === xmax) continue;
            xmax = x;
            const now = await rowCounts(t);
            const changed = changedTables(counts, now);
            if (changed.length && !isBackground(changed))
              problems.push(
                `${where}: refused (${res.status}) but rows changed: ${changed.map((n) => `${n} ${counts[n]} -> ${now[n]}`).join(', ')}`,
              );
            counts = now;
          } else {
            accepted += 1;
            await quiet();
            counts = await rowCounts(t);
            xmax = await nextTransactionId();
          }
        }
      }
      covered.add(op.key);
    }

    const total = operations.length;
    console.log(
      `mutation suite on ${engine}: ${total} operations (${operations.filter((o) => o.params.length || o.body).length} with input), ${fields} fields × ${MUTATIONS.length} mutations = ${fields * MUTATIONS.length} mutated requests, ${accepted} of them valid input (${requests} requests with the base requests)`,
    );
    expect(problems).toEqual([]);
    expect([...covered].sort()).toEqual(operations.map((o) => o.key).sort());
    expect(fields * MUTATIONS.length).toBeGreaterThan(1000);
  }, 600_000);
});
