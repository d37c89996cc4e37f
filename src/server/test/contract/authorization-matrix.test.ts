import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, startGuest, TEST_PASSWORD, uniqueName } from '../http.js';
import { enginesFor, startTestApp, type TestApp } from '../test-app.js';
import {
  answerProblems,
  CALLER_NAMES,
  createCallers,
  createResources,
  ETH_ADDRESS,
  fingerprintDiff,
  listEndpoints,
  rawCall,
  jobsDone,
  settle,
  stateFingerprint,
  type CallerName,
  type Callers,
  type Resources,
} from '../fixtures/bad-input.js';

/**
 * The authorization matrix (docs/architecture.md#testing): every documented endpoint called as anonymous, a guest, another
 * user, the user, support and an admin. Each row states who may call it; a refused caller gets 401
 * (no session), 403 (wrong kind of session or role) or 404 (someone else's resource), and the database
 * is unchanged after every refusal. A new endpoint without a row here fails the completeness test.
 */

/**
 * public: anyone. session: any session (guest or user). guest: guest sessions only. user: signed-in
 * users (any role). staff: support and admin. admin: admin only. signature: nobody by session; the
 * caller must sign the body (the NOWPayments IPN), so every caller here is refused with 401.
 */
type Rule = 'public' | 'session' | 'guest' | 'user' | 'staff' | 'admin' | 'signature';

interface Fixtures extends Resources {
  callers: Callers;
}

interface Request {
  path: string;
  body?: unknown;
  /** A fresh token for this call (logout and refresh end the one they are given). */
  token?: string;
  headers?: Record<string, string>;
}

interface Row {
  rule: Rule;
  /**
   * The resource belongs to `user`: any other caller the rule lets through gets 404 (its existence is
   * not revealed). 'or-staff': staff may read it too, and another user is refused with 403.
   */
  owned?: true | 'or-staff';
  /** What an allowed caller gets: '2xx' (a valid request), or 'any' (not 401/403: the request is refused later, on purpose). */
  allowed?: '2xx' | 'any';
  request: (f: Fixtures, caller: CallerName) => Request | Promise<Request>;
}

const p = (path: string, body?: unknown) => () => ({ path, body });

/** A rule that never matches (its subject condition), so the matrix's own tickets stay as they are. */
const MATRIX_RULE = {
  name: 'Matrix rule',
  enabled: false,
  trigger: { type: 'ticket_created' },
  conditions: [{ type: 'subject_contains', text: 'matrix-never-matches' }],
  actions: [{ type: 'add_tag', tag: 'matrix' }],
};

/** A campaign window that is valid whenever the suite runs (at most 366 days), the same for every request of a run. */
const CAMPAIGN_STARTS_AT = new Date().toISOString();
const CAMPAIGN_ENDS_AT = new Date(Date.now() + 300 * 86_400_000).toISOString();

const MATRIX: Record<string, Row> = {
  'POST /api/guest': { rule: 'public', request: p('/api/guest') },
  'POST /api/register': {
    rule: 'public',
    request: () => {
      const username = uniqueName('mx');
      return { path: '/api/register', body: { username, email: `${username}@example.com`, password: TEST_PASSWORD, turnstileToken: 'ok' } };
    },
  },
  'POST /api/login': {
    rule: 'public',
    request: (f) => ({ path: '/api/login', body: { username: f.callers.user.username, password: TEST_PASSWORD, turnstileToken: 'ok' } }),
  },
  // Guests keep their token until it ends; only accounts refresh.
  'POST /api/refresh-token': { rule: 'user', request: async (f, c) => ({ path: '/api/refresh-token', token: await freshToken(f, c) }) },
  'POST /api/logout': { rule: 'session', request: async (f, c) => ({ path: '/api/logout', token: await freshToken(f, c) }) },
  'GET /api/auth/me': { rule: 'session', request: p('/api/auth/me') },
  'GET /api/auth/sessions': { rule: 'user', request: p('/api/auth/sessions') },
  'DELETE /api/auth/sessions/{id}': {
    rule: 'user',
    owned: true,
    request: async (f) => ({ path: `/api/auth/sessions/${await freshSessionId(f)}` }),
  },
  'GET /api/csrf-token': { rule: 'public', request: p('/api/csrf-token') },
  'GET /api/users/{id}/credits': {
    rule: 'user',
    owned: 'or-staff',
    request: (f) => ({ path: `/api/users/${f.callers.user.userId}/credits` }),
  },
  'PUT /api/onboarding': { rule: 'user', request: p('/api/onboarding', { completed: true }) },
  'PUT /api/users/locale': { rule: 'user', request: p('/api/users/locale', { locale: 'es' }) },
  'POST /api/users/change-password': { rule: 'user', allowed: 'any', request: p('/api/users/change-password', {}) },
  // Closing an account (decision 0255). A wrong password: the matrix must not close its own fixture users.
  'GET /api/users/me/closure': { rule: 'user', request: p('/api/users/me/closure') },
  'DELETE /api/users/me': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/users/me', { password: 'not the password 1', acknowledgeForfeitedCents: 0 }),
  },
  // The credentials are the proof; an open account is refused later (409 ACCOUNT_NOT_CLOSING).
  'POST /api/auth/restore-account': {
    rule: 'public',
    allowed: 'any',
    request: (f) => ({ path: '/api/auth/restore-account', body: { username: f.callers.user.username, password: TEST_PASSWORD } }),
  },
  'GET /api/admin/account-closures': { rule: 'staff', request: p('/api/admin/account-closures') },
  // Only a closing account can be erased: an open one is a 404, so no fixture is erased.
  'POST /api/admin/account-closures/{id}/erase': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({ path: `/api/admin/account-closures/${f.targetId}/erase`, body: { confirmUsername: 'not-the-name' } }),
  },
  // No late payment has this id: an admin is answered 404, so nothing is recorded as refunded.
  'POST /api/admin/account-closures/late-payments/{id}/refunded': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({
      path: `/api/admin/account-closures/late-payments/${f.targetId}/refunded`,
      body: { note: 'sent back to the sender' },
    }),
  },
  'GET /api/auth/discord/authorize-url': { rule: 'user', request: p('/api/auth/discord/authorize-url') },
  'POST /api/auth/discord-exchange': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/auth/discord-exchange', { code: 'not-a-code', state: 'not-a-state' }),
  },
  'POST /api/users/connect/discord': { rule: 'user', allowed: 'any', request: p('/api/users/connect/discord', {}) },
  'DELETE /api/users/disconnect/discord': { rule: 'user', allowed: 'any', request: p('/api/users/disconnect/discord') },
  'GET /api/auth/telegram/config': { rule: 'public', request: p('/api/auth/telegram/config') },
  'POST /api/auth/verify-telegram': { rule: 'user', allowed: 'any', request: p('/api/auth/verify-telegram', {}) },
  'POST /api/users/connect/telegram': { rule: 'user', allowed: 'any', request: p('/api/users/connect/telegram', {}) },
  'DELETE /api/users/disconnect/telegram': { rule: 'user', allowed: 'any', request: p('/api/users/disconnect/telegram') },
  // Mail flows (decision 0130): the links from mails work without signing in; a bad token is a 400.
  'POST /api/auth/verify-email': { rule: 'public', allowed: 'any', request: p('/api/auth/verify-email', { token: 'not-a-real-token' }) },
  'POST /api/auth/resend-verification': { rule: 'user', allowed: 'any', request: p('/api/auth/resend-verification') },
  'POST /api/auth/forgot-password': { rule: 'public', request: p('/api/auth/forgot-password', { email: 'nobody-matrix@example.com' }) },
  'POST /api/auth/reset-password': {
    rule: 'public',
    allowed: 'any',
    request: p('/api/auth/reset-password', { token: 'not-a-real-token', password: 'a matrix passphrase' }),
  },
  'POST /api/auth/confirm-email-change': {
    rule: 'public',
    allowed: 'any',
    request: p('/api/auth/confirm-email-change', { token: 'not-a-real-token' }),
  },
  'PUT /api/users/email': { rule: 'user', allowed: 'any', request: p('/api/users/email', {}) },
  'GET /api/users/mail-preferences': { rule: 'user', request: p('/api/users/mail-preferences') },
  // Notifications (decision 0260): a session's own notices (guests included); the matrix is an account's.
  'GET /api/notifications': { rule: 'session', request: p('/api/notifications') },
  'POST /api/notifications/read': { rule: 'session', request: p('/api/notifications/read', { all: true }) },
  'GET /api/notifications/stream': { rule: 'session', request: p('/api/notifications/stream?timeout=0') },
  'GET /api/users/notification-preferences': { rule: 'user', request: p('/api/users/notification-preferences') },
  'PUT /api/users/notification-preferences': { rule: 'user', request: p('/api/users/notification-preferences', {}) },
  'PUT /api/users/mail-preferences': { rule: 'user', request: p('/api/users/mail-preferences', {}) },
  'POST /api/mail/unsubscribe': { rule: 'public', allowed: 'any', request: p('/api/mail/unsubscribe', { token: 'not.a-token' }) },
  'GET /api/admin/mail': { rule: 'staff', request: p('/api/admin/mail') },
  // Two-factor (decision 0140): settings are the account's own; the second step and passkey sign-in are
  // public (the challenge or the passkey is the proof); staff read a user's status, admins reset it.
  'GET /api/auth/2fa': { rule: 'user', request: p('/api/auth/2fa') },
  'POST /api/auth/2fa/totp/setup': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/auth/2fa/totp/setup', { currentPassword: 'not the password 1' }),
  },
  'POST /api/auth/2fa/totp/enable': { rule: 'user', allowed: 'any', request: p('/api/auth/2fa/totp/enable', { code: '123456' }) },
  'POST /api/auth/2fa/recovery-codes': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/auth/2fa/recovery-codes', { currentPassword: 'not the password 1' }),
  },
  'POST /api/auth/2fa/disable': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/auth/2fa/disable', { currentPassword: 'not the password 1', twoFactorCode: '123456' }),
  },
  'GET /api/auth/2fa/passkeys': { rule: 'user', request: p('/api/auth/2fa/passkeys') },
  'POST /api/auth/2fa/passkeys/options': { rule: 'user', allowed: 'any', request: p('/api/auth/2fa/passkeys/options') },
  'POST /api/auth/2fa/passkeys': { rule: 'user', allowed: 'any', request: p('/api/auth/2fa/passkeys', {}) },
  'DELETE /api/auth/2fa/passkeys/{id}': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/auth/2fa/passkeys/00000000-0000-4000-8000-000000000000'),
  },
  // A step-up challenge (decision 0205) is bound to the caller's own session.
  'POST /api/two-factor/step-up/passkey-options': { rule: 'user', allowed: 'any', request: p('/api/two-factor/step-up/passkey-options') },
  // Like a signed IPN: no session lets anyone through; only a live challenge from the password step does.
  'POST /api/login/2fa': { rule: 'signature', request: p('/api/login/2fa', { challenge: 'not-a-challenge', code: '123456' }) },
  'POST /api/login/passkey/options': { rule: 'public', allowed: 'any', request: p('/api/login/passkey/options', {}) },
  'POST /api/login/passkey': { rule: 'public', allowed: 'any', request: p('/api/login/passkey', {}) },
  'GET /api/admin/users/{id}/two-factor': { rule: 'staff', request: (f) => ({ path: `/api/admin/users/${f.targetId}/two-factor` }) },
  'POST /api/admin/users/{id}/two-factor/reset': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({ path: `/api/admin/users/${f.targetId}/two-factor/reset`, body: {} }),
  },
  'POST /api/admin/mail/{id}/retry': {
    rule: 'staff',
    allowed: 'any',
    request: p('/api/admin/mail/00000000-0000-4000-8000-000000000000/retry'),
  },

  'POST /api/tickets/guest': {
    rule: 'guest',
    request: p('/api/tickets/guest', { subject: 'Matrix guest', message: 'A guest question for the matrix.', category: 'general' }),
  },
  'GET /api/tickets/guest': { rule: 'guest', request: p('/api/tickets/guest') },
  'GET /api/tickets/guest/{id}': { rule: 'guest', request: (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}` }) },
  'PUT /api/tickets/guest/{id}': {
    rule: 'guest',
    request: (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}`, body: { status: 'open' } }),
  },
  'POST /api/tickets/guest/{id}/messages': {
    rule: 'guest',
    request: (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}/messages`, body: { message: 'One more detail.' } }),
  },
  'POST /api/tickets': {
    rule: 'user',
    request: p('/api/tickets', { subject: 'Matrix user', message: 'A user question for the matrix.', category: 'general' }),
  },
  'GET /api/tickets': { rule: 'user', request: p('/api/tickets') },
  'GET /api/tickets/{id}': { rule: 'user', owned: true, request: (f) => ({ path: `/api/tickets/${f.ticketId}` }) },
  'PUT /api/tickets/{id}': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: `/api/tickets/${f.ticketId}`, body: { status: 'open' } }),
  },
  'POST /api/tickets/{id}/messages': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: `/api/tickets/${f.ticketId}/messages`, body: { message: 'One more detail.' } }),
  },
  'GET /api/staff/tickets': { rule: 'staff', request: p('/api/staff/tickets') },
  // Help centre (decision 0290): anyone reads, searches and votes; sessions get suggestions; staff write.
  'GET /api/help/articles': { rule: 'public', request: p('/api/help/articles?q=payment') },
  'GET /api/help/articles/{slug}': { rule: 'public', request: p('/api/help/articles/fixture-article') },
  'POST /api/help/articles/{slug}/vote': { rule: 'public', request: p('/api/help/articles/fixture-article/vote', { helpful: true }) },
  'GET /api/help/suggestions': { rule: 'session', request: p('/api/help/suggestions?q=payment') },
  'POST /api/help/deflections': { rule: 'session', request: p('/api/help/deflections', { slug: 'fixture-article' }) },
  'GET /api/staff/help/articles': { rule: 'staff', request: p('/api/staff/help/articles') },
  'GET /api/staff/help/articles/{id}': { rule: 'staff', request: (f) => ({ path: `/api/staff/help/articles/${f.helpArticleId}` }) },
  'POST /api/staff/help/articles': {
    rule: 'staff',
    request: (_f, c) => ({
      path: '/api/staff/help/articles',
      body: { slug: `matrix-${c}-${Date.now()}`, title: 'Matrix article', category: 'Fixtures', body: 'Matrix.', status: 'draft' },
    }),
  },
  'PUT /api/staff/help/articles/{id}': {
    rule: 'staff',
    request: (f) => ({
      path: `/api/staff/help/articles/${f.helpArticleId}`,
      body: {
        slug: 'fixture-article',
        title: 'Fixture article',
        category: 'Fixtures',
        body: 'A fixture about payments.',
        status: 'published',
      },
    }),
  },
  'POST /api/staff/help/preview': { rule: 'staff', request: p('/api/staff/help/preview', { body: '**Preview**' }) },
  'GET /api/staff/help/articles/{id}/translations': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/help/articles/${f.helpArticleId}/translations` }),
  },
  'PUT /api/staff/help/articles/{id}/translations/{locale}': {
    rule: 'staff',
    request: (f) => ({
      path: `/api/staff/help/articles/${f.helpArticleId}/translations/de`,
      body: { title: 'Fixture-Artikel', body: 'Matrix.' },
    }),
  },
  // A language the fixture article has no translation in: an allowed caller gets 404, nothing is removed.
  'DELETE /api/staff/help/articles/{id}/translations/{locale}': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/help/articles/${f.helpArticleId}/translations/ru` }),
  },
  'GET /api/staff/tickets/{id}/requester': { rule: 'staff', request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}/requester` }) },
  'GET /api/staff/tickets/{id}': { rule: 'staff', request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}` }) },
  'PUT /api/staff/tickets/{id}': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}`, body: { priority: 'high' } }),
  },
  'POST /api/staff/tickets/{id}/messages': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}/messages`, body: { message: 'We are on it.' } }),
  },
  // Support desk (decision 0190). Rating an open fixture ticket is refused later (422), on purpose; merging a
  // ticket into itself too. Canned replies are made fresh for each caller, before the state is taken.
  'POST /api/tickets/guest/{id}/rating': {
    rule: 'guest',
    allowed: 'any',
    request: (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}/rating`, body: { score: 5 } }),
  },
  'POST /api/tickets/{id}/rating': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/tickets/${f.ticketId}/rating`, body: { score: 5 } }),
  },
  'POST /api/staff/tickets/{id}/merge': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}/merge`, body: { sourceId: f.ticketId } }),
  },
  'GET /api/staff/tickets/staff-members': { rule: 'staff', request: p('/api/staff/tickets/staff-members') },
  'GET /api/staff/tickets/ratings': { rule: 'staff', request: p('/api/staff/tickets/ratings') },
  'GET /api/staff/support/report': { rule: 'staff', request: p('/api/staff/support/report?from=2026-01-01&to=2026-01-31') },
  'GET /api/staff/support/report.csv': { rule: 'staff', request: p('/api/staff/support/report.csv?from=2026-01-01&to=2026-01-31') },
  'GET /api/staff/ticket-replies': { rule: 'staff', request: p('/api/staff/ticket-replies') },
  'POST /api/staff/ticket-replies': {
    rule: 'staff',
    request: p('/api/staff/ticket-replies', { title: 'Matrix', body: 'A canned answer.' }),
  },
  'PUT /api/staff/ticket-replies/{id}': {
    rule: 'staff',
    request: async (f) => ({ path: `/api/staff/ticket-replies/${await freshCannedReply(f)}`, body: { title: 'Matrix', body: 'Changed.' } }),
  },
  // Attachments: an upload of something that is not a file is refused later (415), on purpose; a download
  // gets a file the owner uploaded for this call.
  'POST /api/tickets/guest/{id}/attachments': {
    rule: 'guest',
    allowed: 'any',
    request: (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}/attachments?filename=a.png`, body: 'not a file' }),
  },
  'POST /api/tickets/{id}/attachments': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/tickets/${f.ticketId}/attachments?filename=a.png`, body: 'not a file' }),
  },
  'POST /api/staff/tickets/{id}/attachments': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}/attachments?filename=a.png`, body: 'not a file' }),
  },
  'GET /api/tickets/guest/{id}/attachments/{attachmentId}': {
    rule: 'guest',
    request: async (f) => ({ path: `/api/tickets/guest/${f.guestTicketId}/attachments/${await freshAttachment(f, 'guest')}` }),
  },
  'GET /api/tickets/{id}/attachments/{attachmentId}': {
    rule: 'user',
    owned: true,
    request: async (f) => ({ path: `/api/tickets/${f.ticketId}/attachments/${await freshAttachment(f, 'user')}` }),
  },
  'GET /api/staff/tickets/{id}/attachments/{attachmentId}': {
    rule: 'staff',
    request: async (f) => ({ path: `/api/staff/tickets/${f.ticketId}/attachments/${await freshAttachment(f, 'user')}` }),
  },
  'DELETE /api/staff/ticket-replies/{id}': {
    rule: 'staff',
    request: async (f) => ({ path: `/api/staff/ticket-replies/${await freshCannedReply(f)}` }),
  },
  // Business hours and SLA targets (decision 0293): staff read, admins change.
  'GET /api/staff/support/sla': { rule: 'staff', request: p('/api/staff/support/sla') },
  'PUT /api/staff/support/sla/calendar': {
    rule: 'admin',
    request: p('/api/staff/support/sla/calendar', { timeZone: 'UTC', days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }),
  },
  'POST /api/staff/support/sla/holidays': {
    rule: 'admin',
    request: async () => ({ path: '/api/staff/support/sla/holidays', body: { day: nextHolidayDay(), name: 'Matrix holiday' } }),
  },
  'DELETE /api/staff/support/sla/holidays/{day}': {
    rule: 'admin',
    request: async (f) => ({ path: `/api/staff/support/sla/holidays/${await freshHoliday(f)}` }),
  },
  'PUT /api/staff/support/sla/targets': {
    rule: 'admin',
    request: p('/api/staff/support/sla/targets', { targets: [{ priority: 'low', firstResponseMinutes: 960, resolutionMinutes: 4800 }] }),
  },
  // Support automation (decision 0294): staff tag tickets and read rules; admins change rules and auto-close.
  'PUT /api/staff/tickets/{id}/tags': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/tickets/${f.ticketId}/tags`, body: { tags: ['matrix'] } }),
  },
  'GET /api/staff/support-rules': { rule: 'staff', request: p('/api/staff/support-rules') },
  'GET /api/staff/support-rules/runs': { rule: 'staff', request: p('/api/staff/support-rules/runs') },
  'POST /api/staff/support-rules': { rule: 'admin', request: p('/api/staff/support-rules', MATRIX_RULE) },
  'PUT /api/staff/support-rules/{id}': {
    rule: 'admin',
    request: async (f) => ({ path: `/api/staff/support-rules/${await freshRule(f)}`, body: MATRIX_RULE }),
  },
  'PUT /api/staff/support-rules/{id}/enabled': {
    rule: 'admin',
    request: async (f) => ({ path: `/api/staff/support-rules/${await freshRule(f)}/enabled`, body: { enabled: false } }),
  },
  'DELETE /api/staff/support-rules/{id}': {
    rule: 'admin',
    request: async (f) => ({ path: `/api/staff/support-rules/${await freshRule(f)}` }),
  },
  'GET /api/staff/support-settings/auto-close': { rule: 'staff', request: p('/api/staff/support-settings/auto-close') },
  'PUT /api/staff/support-settings/auto-close': {
    rule: 'admin',
    request: p('/api/staff/support-settings/auto-close', { autoCloseDays: 7 }),
  },

  // Charge API (decision 0165): only an API key opens it, so every session caller is refused with 401; the
  // console's key management is for admins; receipts and the export are the owner's.
  'POST /api/v1/charges': {
    rule: 'signature',
    request: (f) => ({ path: '/api/v1/charges', body: { userId: f.targetId, amountCents: 1, description: 'Matrix charge' } }),
  },
  'GET /api/v1/charges/{id}': { rule: 'signature', request: (f) => ({ path: `/api/v1/charges/${f.chargeId}` }) },
  'POST /api/v1/charges/{id}/refund': { rule: 'signature', request: (f) => ({ path: `/api/v1/charges/${f.chargeId}/refund` }) },
  'GET /api/admin/api-keys': { rule: 'admin', request: p('/api/admin/api-keys') },
  'POST /api/admin/api-keys': { rule: 'admin', request: p('/api/admin/api-keys', { name: 'Matrix key' }) },
  'POST /api/admin/api-keys/{id}/revoke': {
    rule: 'admin',
    allowed: 'any',
    request: p('/api/admin/api-keys/00000000-0000-4000-8000-000000000000/revoke'),
  },
  'GET /api/credits/ledger/{id}/receipt': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: `/api/credits/ledger/${f.ledgerEntryId}/receipt` }),
  },
  'GET /api/credits/ledger.csv': { rule: 'user', request: p('/api/credits/ledger.csv?from=2026-01-01&to=2026-12-31') },
  // A copy of my data: the owner's only; a second request the same day is refused (429), not forbidden.
  'POST /api/users/me/export': { rule: 'user', allowed: 'any', request: p('/api/users/me/export') },
  'GET /api/users/me/exports': { rule: 'user', request: p('/api/users/me/exports') },
  'GET /api/users/me/exports/{id}': { rule: 'user', owned: true, request: (f) => ({ path: `/api/users/me/exports/${f.exportId}` }) },
  // The owner gets the ZIP, or 409 while the job is still building it.
  'GET /api/users/me/exports/{id}/download': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/users/me/exports/${f.exportId}/download` }),
  },
  'GET /api/admin/users': { rule: 'staff', request: p('/api/admin/users') },
  'GET /api/admin/users/{id}': { rule: 'staff', request: (f) => ({ path: `/api/admin/users/${f.targetId}` }) },
  'GET /api/admin/users/{id}/ledger': { rule: 'staff', request: (f) => ({ path: `/api/admin/users/${f.targetId}/ledger` }) },
  'PUT /api/admin/users/{id}/role': {
    rule: 'admin',
    request: (f) => ({ path: `/api/admin/users/${f.targetId}/role`, body: { role: 'user' } }),
  },
  'PUT /api/admin/users/{id}/disabled': {
    rule: 'admin',
    request: (f) => ({ path: `/api/admin/users/${f.targetId}/disabled`, body: { disabled: false, reason: 'matrix check' } }),
  },
  'GET /api/admin/audit': { rule: 'staff', request: p('/api/admin/audit') },
  'GET /api/admin/overview': { rule: 'staff', request: p('/api/admin/overview') },
  'GET /api/credits/history': { rule: 'user', request: p('/api/credits/history') },
  'GET /api/credits/outstanding': { rule: 'user', request: p('/api/credits/outstanding') },
  'GET /api/admin/credits/outstanding': {
    rule: 'staff',
    request: (f) => ({ path: `/api/admin/credits/outstanding?userId=${f.targetId}` }),
  },
  'POST /api/admin/credits/adjustments': {
    rule: 'admin',
    request: (f) => ({ path: '/api/admin/credits/adjustments', body: { userId: f.targetId, amount: 1, reason: 'matrix check' } }),
  },
  'GET /api/admin/credits/adjustment-requests': { rule: 'admin', request: p('/api/admin/credits/adjustment-requests') },
  // No request has this id: an admin gets 404, every other caller is refused first.
  'POST /api/admin/credits/adjustment-requests/{id}/approve': {
    rule: 'admin',
    allowed: 'any',
    request: p('/api/admin/credits/adjustment-requests/00000000-0000-4000-8000-000000000000/approve', {}),
  },
  'POST /api/admin/credits/adjustment-requests/{id}/reject': {
    rule: 'admin',
    allowed: 'any',
    request: p('/api/admin/credits/adjustment-requests/00000000-0000-4000-8000-000000000000/reject', { note: 'matrix check' }),
  },

  'GET /api/payments/cryptos': { rule: 'public', request: p('/api/payments/cryptos') },
  'POST /api/payments/deposit': { rule: 'user', request: p('/api/payments/deposit', { crypto: 'btc', amount: 20 }) },
  'GET /api/payments/mine': { rule: 'user', request: p('/api/payments/mine') },
  'POST /api/payments/check': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: '/api/payments/check', body: { orderId: f.paymentId, txHash: 'ab12cd34ef56ab78' } }),
  },
  'GET /api/payments/{id}/status': { rule: 'user', owned: true, request: (f) => ({ path: `/api/payments/${f.paymentId}/status` }) },
  'GET /api/payments/{id}': { rule: 'user', owned: true, request: (f) => ({ path: `/api/payments/${f.paymentId}` }) },
  'POST /api/payments/ipn': {
    rule: 'signature',
    request: (f) => ({ path: '/api/payments/ipn', body: { payment_id: 1, order_id: f.paymentId, payment_status: 'finished' } }),
  },

  'GET /api/exchange/currencies': { rule: 'public', request: p('/api/exchange/currencies') },
  'GET /api/exchange/estimate': { rule: 'public', request: p('/api/exchange/estimate?from=btc&to=eth&amount=0.01') },
  'GET /api/exchange/range': { rule: 'public', request: p('/api/exchange/range?from=btc&to=eth&rateType=fixed') },
  'POST /api/exchange/exchanges': {
    rule: 'session',
    request: p('/api/exchange/exchanges', { from: 'btc', to: 'eth', amount: 0.01, payoutAddress: ETH_ADDRESS }),
  },
  'GET /api/exchange/exchanges': { rule: 'session', request: p('/api/exchange/exchanges') },
  'GET /api/exchange/exchanges/{id}': {
    rule: 'session',
    owned: true,
    request: (f) => ({ path: `/api/exchange/exchanges/${f.exchangeId}` }),
  },
  'POST /api/exchange/guest-rewards-status': { rule: 'public', request: p('/api/exchange/guest-rewards-status', { claims: [] }) },
  'POST /api/exchange/claim-guest-rewards': {
    rule: 'user',
    allowed: 'any',
    request: (f, c) => ({ path: '/api/exchange/claim-guest-rewards', body: { claims: [], userId: accountId(f, c) } }),
  },
  'GET /api/admin/payments': { rule: 'staff', request: p('/api/admin/payments') },
  'GET /api/admin/payments/{id}': { rule: 'staff', request: (f) => ({ path: `/api/admin/payments/${f.paymentId}` }) },
  'POST /api/admin/payments/{id}/recheck': { rule: 'staff', request: (f) => ({ path: `/api/admin/payments/${f.paymentId}/recheck` }) },
  'GET /api/admin/exchanges': { rule: 'staff', request: p('/api/admin/exchanges') },
  'GET /api/admin/exchanges/{id}': { rule: 'staff', request: (f) => ({ path: `/api/admin/exchanges/${f.exchangeId}` }) },
  'POST /api/admin/exchanges/{id}/recheck': { rule: 'staff', request: (f) => ({ path: `/api/admin/exchanges/${f.exchangeId}/recheck` }) },

  'GET /api/ads': { rule: 'public', request: p('/api/ads?placement=home-banner') },
  'POST /api/ads/{id}/impression': { rule: 'public', allowed: 'any', request: (f) => ({ path: `/api/ads/${f.adId}/impression` }) },
  'GET /api/ads/{id}/click': { rule: 'public', allowed: 'any', request: (f) => ({ path: `/api/ads/${f.adId}/click` }) },
  // An image only while an ad uses it (docs/decisions/0303); the matrix's ad is a text ad: 404 for anyone.
  'GET /api/ads/images/{id}': { rule: 'public', allowed: 'any', request: p('/api/ads/images/00000000-0000-4000-8000-000000000303') },
  'GET /api/staff/ads': { rule: 'staff', request: p('/api/staff/ads') },
  'POST /api/staff/ads': {
    rule: 'staff',
    request: p('/api/staff/ads', { placement: 'patch-notes', title: 'Matrix ad', targetUrl: 'https://example.com/' }),
  },
  'PUT /api/staff/ads/{id}': { rule: 'staff', request: (f) => ({ path: `/api/staff/ads/${f.adId}`, body: { weight: 2 } }) },
  'GET /api/staff/ads/stats': { rule: 'staff', request: p('/api/staff/ads/stats') },
  // Self-serve campaigns: the owner's own (someone else's is a 404); review and every campaign for staff.
  'GET /api/ad-campaigns': { rule: 'user', request: p('/api/ad-campaigns') },
  // Each allowed caller sends a fresh request id; without credits to reserve it is refused (422), never 401/403.
  'POST /api/ad-campaigns': {
    rule: 'user',
    allowed: 'any',
    request: () => ({
      path: '/api/ad-campaigns',
      body: {
        requestId: randomUUID(),
        name: 'Matrix campaign',
        placements: ['patch-notes'],
        startsAt: CAMPAIGN_STARTS_AT,
        endsAt: CAMPAIGN_ENDS_AT,
        priceModel: 'cpm',
        priceCents: 1000,
        budgetCents: 500,
        creatives: [{ title: 'Matrix creative', targetUrl: 'https://example.com/' }],
      },
    }),
  },
  'GET /api/ad-campaigns/{id}': { rule: 'user', owned: true, request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}` }) },
  'GET /api/ad-campaigns/{id}/report': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}/report` }),
  },
  'GET /api/ad-campaigns/{id}/report.csv': {
    rule: 'user',
    owned: true,
    request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}/report.csv` }),
  },
  'POST /api/ad-campaigns/{id}/pause': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}/pause` }),
  },
  'POST /api/ad-campaigns/{id}/resume': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}/resume` }),
  },
  'PUT /api/ad-campaigns/{id}/creatives/{creativeId}': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({
      path: `/api/ad-campaigns/${f.campaignId}/creatives/${f.creativeId}`,
      body: { title: 'Matrix creative', targetUrl: 'https://example.com/' },
    }),
  },
  'POST /api/ad-campaigns/{id}/stop': {
    rule: 'user',
    owned: true,
    allowed: 'any',
    request: (f) => ({ path: `/api/ad-campaigns/${f.campaignId}/stop` }),
  },
  'GET /api/staff/ad-campaigns': { rule: 'staff', request: p('/api/staff/ad-campaigns') },
  // House campaigns (decision 0283): admins only. The fixture's campaign is paid, so an admin gets a 404.
  'POST /api/staff/ad-campaigns': {
    rule: 'admin',
    request: () => ({
      path: '/api/staff/ad-campaigns',
      body: {
        requestId: randomUUID(),
        name: 'Matrix house campaign',
        placements: ['patch-notes'],
        startsAt: CAMPAIGN_STARTS_AT,
        endsAt: CAMPAIGN_ENDS_AT,
        priceModel: 'cpm',
        priceCents: 1000,
        budgetCents: null,
        creatives: [{ title: 'Matrix creative', targetUrl: 'https://example.com/' }],
      },
    }),
  },
  'POST /api/staff/ad-campaigns/{id}/pause': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/ad-campaigns/${f.campaignId}/pause` }),
  },
  'POST /api/staff/ad-campaigns/{id}/resume': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/ad-campaigns/${f.campaignId}/resume` }),
  },
  'POST /api/staff/ad-campaigns/{id}/stop': {
    rule: 'admin',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/ad-campaigns/${f.campaignId}/stop` }),
  },
  'GET /api/staff/ad-campaigns/{id}/report': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/ad-campaigns/${f.campaignId}/report` }),
  },
  'GET /api/staff/ad-campaigns/{id}/report.csv': {
    rule: 'staff',
    request: (f) => ({ path: `/api/staff/ad-campaigns/${f.campaignId}/report.csv` }),
  },
  'GET /api/staff/ad-reviews': { rule: 'staff', request: p('/api/staff/ad-reviews') },
  'POST /api/staff/ad-reviews/{id}/approve': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/ad-reviews/${f.creativeId}/approve` }),
  },
  'POST /api/staff/ad-reviews/{id}/reject': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/staff/ad-reviews/${f.creativeId}/reject`, body: { reason: 'Matrix rejection' } }),
  },

  'GET /api/status': { rule: 'public', request: p('/api/status') },
  'GET /api/status/current': { rule: 'public', request: p('/api/status/current') },
  'GET /api/sandbox': { rule: 'public', request: p('/api/sandbox') },
  // Referrals (docs/product.md#referrals): mine, the staff's, and the sandbox's release of held rewards.
  'GET /api/referrals': { rule: 'user', request: p('/api/referrals') },
  'GET /api/referrals/summary': { rule: 'user', request: p('/api/referrals/summary') },
  'POST /api/sandbox/referrals/release-held': { rule: 'user', request: p('/api/sandbox/referrals/release-held') },
  'GET /api/admin/referrals': { rule: 'admin', request: p('/api/admin/referrals') },
  // No referral has this id: an admin gets 404, every other caller is refused first.
  'POST /api/admin/referrals/{id}/refuse': {
    rule: 'admin',
    allowed: 'any',
    request: p('/api/admin/referrals/00000000-0000-4000-8000-000000000000/refuse', { note: 'matrix check' }),
  },
  'POST /api/admin/referrals/{id}/reverse': {
    rule: 'admin',
    allowed: 'any',
    request: p('/api/admin/referrals/00000000-0000-4000-8000-000000000000/reverse', { note: 'matrix check' }),
  },
  'GET /api/admin/referrals/report': { rule: 'admin', request: p('/api/admin/referrals/report') },
  'GET /api/admin/referrals/report.csv': { rule: 'admin', request: p('/api/admin/referrals/report.csv') },
  'GET /api/admin/referrals/settings': { rule: 'admin', request: p('/api/admin/referrals/settings') },
  'PUT /api/admin/referrals/settings': {
    rule: 'admin',
    request: p('/api/admin/referrals/settings', {
      shareBasisPoints: 1000,
      rewardDays: 90,
      capPerReferredCents: 5000,
      holdDays: 14,
      dailyCapCents: 20000,
      lifetimeCapCents: 500000,
      welcomeBonusCents: 200,
    }),
  },
  // Catalogue and orders (decision 0160): anyone reads the catalogue; admins change it; staff fulfil, admins refund.
  'GET /api/catalogue': { rule: 'public', request: p('/api/catalogue') },
  // Callers other than the fixture's buyer hold no credits: 422, which is not a refusal of who they are.
  'POST /api/orders': {
    rule: 'user',
    allowed: 'any',
    request: (f, c) => ({
      path: '/api/orders',
      body: { itemId: f.catalogueItemId, expectedPriceCents: 1 },
      headers: { 'idempotency-key': `matrix-${c}-${Date.now()}` },
    }),
  },
  'GET /api/orders': { rule: 'user', request: p('/api/orders') },
  'GET /api/orders/{id}': { rule: 'user', owned: true, request: (f) => ({ path: `/api/orders/${f.orderId}` }) },
  'GET /api/admin/catalogue': { rule: 'staff', request: p('/api/admin/catalogue') },
  'POST /api/admin/catalogue': {
    rule: 'admin',
    request: p('/api/admin/catalogue', { name: 'Matrix item', description: '', priceCents: 100, stock: null }),
  },
  'PUT /api/admin/catalogue/{id}': {
    rule: 'admin',
    request: (f) => ({ path: `/api/admin/catalogue/${f.catalogueItemId}`, body: { description: 'Matrix check' } }),
  },
  'GET /api/admin/orders': { rule: 'staff', request: p('/api/admin/orders') },
  // Support fulfils first; the admin's second call finds it fulfilled (409).
  'POST /api/admin/orders/{id}/fulfil': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/admin/orders/${f.orderId}/fulfil` }),
  },
  'POST /api/admin/orders/{id}/refund': { rule: 'admin', request: (f) => ({ path: `/api/admin/orders/${f.orderId}/refund` }) },
  'POST /api/status/incidents': {
    rule: 'staff',
    request: p('/api/status/incidents', { title: 'Matrix incident', message: 'Looking into it.' }),
  },
  'PUT /api/status/incidents/{id}': {
    rule: 'staff',
    request: (f) => ({ path: `/api/status/incidents/${f.incidentId}`, body: { message: 'Still looking.' } }),
  },
  'POST /api/status/checks': { rule: 'staff', request: p('/api/status/checks') },
  'POST /api/status/maintenance': {
    rule: 'staff',
    request: p('/api/status/maintenance', {
      title: 'Matrix maintenance',
      description: 'Database upgrade.',
      startsAt: '2030-01-01T10:00:00.000Z',
      endsAt: '2030-01-01T11:00:00.000Z',
    }),
  },
  'PUT /api/status/maintenance/{id}': {
    rule: 'staff',
    request: (f) => ({ path: `/api/status/maintenance/${f.maintenanceId}`, body: { title: 'Matrix maintenance edited' } }),
  },
  // Support cancels first; the admin's second call finds it cancelled (409).
  'POST /api/status/maintenance/{id}/cancel': {
    rule: 'staff',
    allowed: 'any',
    request: (f) => ({ path: `/api/status/maintenance/${f.cancellableMaintenanceId}/cancel` }),
  },
  'GET /api/status/feed.atom': { rule: 'public', request: p('/api/status/feed.atom') },
  'POST /api/status/subscriptions': { rule: 'public', request: p('/api/status/subscriptions', { email: 'matrix-status@example.com' }) },
  // A made-up token is refused (422) for everyone: the rule is that no session is needed.
  'POST /api/status/subscriptions/confirm': {
    rule: 'public',
    allowed: 'any',
    request: p('/api/status/subscriptions/confirm', { token: 'not-a-token' }),
  },
  'POST /api/status/subscriptions/unsubscribe': {
    rule: 'public',
    allowed: 'any',
    request: p('/api/status/subscriptions/unsubscribe', { token: 'not-a-token' }),
  },
  // Opening the one-click URL only redirects to the page (303): nothing changes on a GET.
  'GET /api/status/subscriptions/unsubscribe': { rule: 'public', request: p('/api/status/subscriptions/unsubscribe?token=not-a-token') },

  'GET /api/users/webhook-settings': { rule: 'user', request: p('/api/users/webhook-settings') },
  'PUT /api/users/webhook-settings': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/users/webhook-settings', { url: 'https://example.com/hook', events: [], enabled: false }),
  },
  'POST /api/users/webhook-settings/rotate-secret': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/users/webhook-settings/rotate-secret'),
  },
  'POST /api/users/webhook-settings/test': { rule: 'user', allowed: 'any', request: p('/api/users/webhook-settings/test') },
  'GET /api/users/webhook-deliveries': { rule: 'user', request: p('/api/users/webhook-deliveries') },
  // Nobody in the matrix has a webhook: the owner's own answer is 404 too (ownership: webhooks.test.ts).
  'POST /api/users/webhook-settings/enable': { rule: 'user', allowed: 'any', request: p('/api/users/webhook-settings/enable') },
  'POST /api/users/webhook-deliveries/{id}/replay': {
    rule: 'user',
    allowed: 'any',
    request: p('/api/users/webhook-deliveries/00000000-0000-4000-8000-000000000000/replay'),
  },
};

function accountId(f: Fixtures, c: CallerName): string {
  const caller = f.callers[c];
  return 'userId' in caller ? caller.userId : '00000000-0000-4000-8000-000000000000';
}

let currentApp: TestApp;

/** A new session for this caller, so ending it leaves the caller's own session alone. */
async function freshToken(f: Fixtures, c: CallerName): Promise<string | undefined> {
  if (c === 'anonymous') return undefined;
  if (c === 'guest') return (await startGuest(currentApp)).token;
  const res = await call(currentApp, 'POST', '/api/login', {
    body: { username: f.callers[c].username, password: TEST_PASSWORD, turnstileToken: 'ok' },
  });
  return res.json.token as string;
}

const PNG_1X1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** A PNG the owner (the user, or the guest for its own ticket) attaches for one call; answers its id. */
async function freshAttachment(f: Fixtures, owner: 'user' | 'guest'): Promise<string> {
  const path = owner === 'guest' ? `/api/tickets/guest/${f.guestTicketId}/attachments` : `/api/tickets/${f.ticketId}/attachments`;
  const headers: Record<string, string> = {
    authorization: `Bearer ${f.callers[owner].token}`,
    'content-type': 'image/png',
    ...(f.callers[owner].headers ?? {}),
  };
  const res = await fetch(`${currentApp.url}${path}?filename=m.png`, { method: 'POST', headers, body: new Uint8Array(PNG_1X1) });
  const json = (await res.json()) as { ticket: { messages: Array<{ attachments: Array<{ _id: string }> }> } };
  return json.ticket.messages.at(-1)!.attachments[0]!._id;
}

/** A rule made by the admin for one call (PUT and DELETE each need one that exists). */
async function freshRule(f: Fixtures): Promise<string> {
  const res = await call(currentApp, 'POST', '/api/staff/support-rules', { token: f.callers.admin.token, body: MATRIX_RULE });
  return res.json.rule._id as string;
}

/** A canned reply made by the admin for one call (PUT and DELETE each need one that exists). */
async function freshCannedReply(f: Fixtures): Promise<string> {
  const res = await call(currentApp, 'POST', '/api/staff/ticket-replies', {
    token: f.callers.admin.token,
    body: { title: uniqueName('canned'), body: 'A canned answer.' },
  });
  return res.json.reply._id as string;
}

let holidayCount = 0;
/** A date no earlier request made a holiday. */
function nextHolidayDay(): string {
  holidayCount += 1;
  return new Date(Date.UTC(2040, 0, holidayCount)).toISOString().slice(0, 10);
}

/** A holiday made by the admin for one DELETE. */
async function freshHoliday(f: Fixtures): Promise<string> {
  const day = nextHolidayDay();
  await call(currentApp, 'POST', '/api/staff/support/sla/holidays', {
    token: f.callers.admin.token,
    body: { day, name: 'Matrix holiday' },
  });
  return day;
}

/** The id of a second session of `user` (the resource owner), made for one DELETE. */
async function freshSessionId(f: Fixtures): Promise<string> {
  const token = await freshToken(f, 'user');
  const list = await call(currentApp, 'GET', '/api/auth/sessions', { token });
  const current = (list.json.sessions as { _id: string; current: boolean }[]).find((s) => s.current);
  if (!current) throw new Error('no current session');
  return current._id;
}

/** What a caller must get from a row: 'allowed', 'not-found' (someone else's), or a refusal status. */
function expectation(row: Row, caller: CallerName): 'allowed' | 401 | 403 | 404 {
  if (row.rule === 'signature') return 401;
  if (row.rule === 'public') return 'allowed';
  if (caller === 'anonymous') return 401;
  const kind = caller === 'guest' ? 'guest' : caller === 'support' || caller === 'admin' ? caller : 'user';
  const passes =
    row.rule === 'session' ||
    (row.rule === 'guest' && kind === 'guest') ||
    (row.rule === 'user' && kind !== 'guest') ||
    (row.rule === 'staff' && (kind === 'support' || kind === 'admin')) ||
    (row.rule === 'admin' && kind === 'admin');
  if (!passes) return 403;
  if (row.owned === 'or-staff') return caller === 'other' ? 403 : 'allowed';
  if (row.owned && caller !== 'user') return 404;
  return 'allowed';
}

describe('the authorization matrix', () => {
  it('has a row for every documented endpoint, and no row for an endpoint that is gone', async () => {
    const t = await startTestApp('pglite');
    try {
      const documented = (await listEndpoints(t)).map((e) => e.key).sort();
      expect(Object.keys(MATRIX).sort()).toEqual(documented);
    } finally {
      await t.close();
    }
  });
});

describe.each(enginesFor('sweep'))('every endpoint as every caller on %s', (engine) => {
  let t: TestApp;
  let f: Fixtures;

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    currentApp = t;
    const callers = await createCallers(t);
    f = { callers, ...(await createResources(t, callers)) };
  });
  afterAll(async () => {
    await t?.close();
  });

  /** After a row that ends sessions or changes roles, give every caller a live session again. */
  async function revive() {
    const fresh = await startGuest(t);
    const guest = f.callers.guest;
    if ((await call(t, 'GET', '/api/auth/me', { token: guest.token, headers: guest.headers })).status !== 200) {
      f.callers.guest = { token: fresh.token, guestId: fresh.guestId, headers: { 'guest-id': fresh.guestId } };
    }
    for (const name of ['user', 'other', 'support', 'admin'] as const) {
      const account = f.callers[name];
      if ((await call(t, 'GET', '/api/auth/me', { token: account.token })).status === 200) continue;
      const res = await call(t, 'POST', '/api/login', {
        body: { username: account.username, password: TEST_PASSWORD, turnstileToken: 'ok' },
      });
      account.token = res.json.token as string;
    }
    await setRole(t.database.db, f.callers.support.userId, 'support');
    await setRole(t.database.db, f.callers.admin.userId, 'admin');
  }

  for (const [key, row] of Object.entries(MATRIX)) {
    it(`${key}: ${row.rule}${row.owned ? ' (own resources only)' : ''}`, async () => {
      const [method, template] = key.split(' ') as [string, string];
      // Refusals first, so an allowed call cannot hide what a refused one changed.
      const order = [...CALLER_NAMES].sort((x, y) => Number(expectation(row, x) === 'allowed') - Number(expectation(row, y) === 'allowed'));
      const outcomes: string[] = [];
      for (const caller of order) {
        const expected = expectation(row, caller);
        const req = await row.request(f, caller);
        expect(req.path.split('?')[0]!.split('/').length, `${key} request path`).toBe(template.split('/').length);
        const c = f.callers[caller];
        const token = req.token ?? c.token;
        const headers: Record<string, string> = { ...(c.headers ?? {}), ...(req.headers ?? {}) };
        if (req.token && caller === 'guest') delete headers['guest-id'];
        if (token) headers.authorization = `Bearer ${token}`;
        if (req.body !== undefined) headers['content-type'] = 'application/json';
        if (expected !== 'allowed') await jobsDone(t);
        const before = expected === 'allowed' ? null : await stateFingerprint(t);
        const { res, raw } = await rawCall(t, method, req.path, {
          headers,
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
        });
        const problems = answerProblems(res, raw);
        if (expected === 'allowed') {
          if (row.allowed === 'any' ? res.status === 401 || res.status === 403 : res.status < 200 || res.status >= 400)
            problems.push(`expected success, got ${res.status}`);
        } else {
          if (res.status !== expected) problems.push(`expected ${expected}, got ${res.status}`);
          const changed = fingerprintDiff(before!, await stateFingerprint(t));
          if (changed.length > 0) problems.push(`refused but the database changed: ${changed.join('; ')}`);
        }
        outcomes.push(`${caller}: ${res.status}${problems.length ? ` ✗ ${problems.join(', ')} ${raw.slice(0, 200)}` : ''}`);
      }
      await revive();
      await settle(t);
      expect(
        outcomes.filter((o) => o.includes('✗')),
        outcomes.join('\n'),
      ).toEqual([]);
    });
  }
});
