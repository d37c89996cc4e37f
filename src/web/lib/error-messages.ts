import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { ClientErrorCode, ErrorCode } from '#shared/error-codes';
import { formatLocaleCredits, formatLocaleCrypto, formatLocaleDate, formatLocaleDateTime, pageLocale } from './format';

/**
 * The web's words for each error code of the server (src/shared/error-codes.ts), translated where they
 * are shown (decision 0326). The English text is the message the server sends for the code, so English
 * reads as before. `null`: the server's message carries specifics (a field, a limit, an amount, a date)
 * or differs by where the code is thrown, so its own English message is shown.
 */
export const ERROR_MESSAGES: Record<ErrorCode, MessageDescriptor | null> = {
  BAD_REQUEST: null,
  VALIDATION_ERROR: null,
  MALFORMED_REQUEST: null,
  CLIENT_ERROR: null,
  BODY_TOO_LARGE: null,
  UNSUPPORTED_MEDIA_TYPE: msg`Unsupported content type; send JSON`,
  RULE_BROKEN: null,
  CONFLICT: null,
  CONCURRENT_CHANGE: msg`Another change to the same account or item is still in progress. Try again in a moment.`,
  IDEMPOTENCY_KEY_REUSED: null,
  NOT_FOUND: null,
  RATE_LIMITED: null,
  INTERNAL: msg`Internal server error`,
  UNAVAILABLE: null,
  UNAUTHORIZED: msg`Authentication failed`,
  FORBIDDEN: null,
  NO_TOKEN: msg`Authentication required`,
  INVALID_TOKEN: msg`Invalid or expired token`,
  REFRESH_FAILED: msg`Token refresh failed`,
  SESSION_ENDED: msg`Session has ended. Please sign in again.`,
  GUEST_MISMATCH: msg`Guest-ID does not match the session`,
  USER_NOT_FOUND: msg`User not found`,
  USER_DISABLED: msg`This account is disabled and cannot be charged`,
  ACCOUNT_CLOSING: null,
  ACCOUNT_NOT_CLOSING: null,
  INVALID_CREDENTIALS: msg`Invalid username or password`,
  WRONG_PASSWORD: null,
  ALREADY_VERIFIED: msg`Your email address is already confirmed`,
  BOT_CHECK_FAILED: msg`The bot check failed. Please try again.`,
  BOT_CHECK_UNAVAILABLE: msg`The bot check could not be verified right now. Please try again.`,
  TOKEN_INVALID: null,
  TOKEN_EXPIRED: null,
  TOKEN_USED: msg`This link has already been used. Ask for a new one if you still need it.`,
  TOKEN_SUPERSEDED: msg`A newer link was sent after this one. Use the link in the most recent email.`,
  TOKEN_VOIDED: msg`This link is no longer valid because your account changed after it was sent. Ask for a new one.`,
  TWO_FACTOR_REQUIRED: null,
  INVALID_TWO_FACTOR_CODE: null,
  CHALLENGE_EXPIRED: null,
  SETUP_REQUIRED: msg`Start the setup first: confirm your password to get a new secret.`,
  PASSKEYS_UNAVAILABLE: null,
  PASSKEY_FAILED: msg`That passkey could not be used to sign in. Try again, or sign in with your password.`,
  NO_API_KEY: null,
  INVALID_API_KEY: null,
  API_KEY_NOT_ACCEPTED: msg`API keys work only on the charge API (/api/v1)`,
  INSUFFICIENT_CREDITS: null,
  ALREADY_REFUNDED: null,
  ALREADY_DECIDED: null,
  FOUR_EYES_REQUIRED: msg`Another admin must approve an adjustment you asked for (four eyes).`,
  PAYMENT_PROVIDER_ERROR: msg`The payment provider is not available right now. Please try again in a few minutes.`,
  PAYMENT_PROVIDER_REFUSED: msg`The payment provider refused this deposit. Try another amount or currency.`,
  CURRENCY_UNAVAILABLE: null,
  AMOUNT_OUT_OF_RANGE: null,
  AMOUNT_BELOW_PROVIDER_MINIMUM: null,
  INVALID_IPN: msg`IPN has no payment_id`,
  IPN_MISMATCH: null,
  INVALID_SIGNATURE: msg`Invalid IPN signature`,
  SWAP_PROVIDER_ERROR: msg`The exchange service is not available right now. Please try again in a few minutes.`,
  SWAP_PROVIDER_MISMATCH: msg`The swap provider answered about another exchange`,
  AMOUNT_BELOW_MINIMUM: null,
  AMOUNT_ABOVE_MAXIMUM: null,
  FIXED_RATE_EXPIRED: null,
  FIXED_RATE_UNKNOWN: null,
  FIXED_RATE_REQUIRED: null,
  INVALID_PAYOUT_ADDRESS: null,
  INVALID_REFUND_ADDRESS: null,
  PAIR_INACTIVE: msg`This pair cannot be exchanged right now`,
  OUT_OF_STOCK: msg`This item is sold out`,
  PRICE_CHANGED: null,
  BALANCE_CHANGED: null,
  CAMPAIGN_ENDED: msg`This campaign has ended and cannot change any more`,
  ALREADY_REVIEWED: msg`This creative was already reviewed`,
  CREATIVE_CHANGED: msg`The creative changed while it was being reviewed; review it again`,
  AD_IMAGE_REFUSED: null,
  INVALID_OAUTH_STATE: msg`This Discord authorization has expired or was already used. Please connect again from your settings.`,
  CONNECTION_NOT_VERIFIED: null,
  CONNECTION_TAKEN: null,
  DISCORD_CODE_REJECTED: msg`Discord did not accept the authorization code. Please try connecting again.`,
  DISCORD_CLIENT_REJECTED: msg`Discord refused this site's credentials. Please try again later.`,
  DISCORD_BAD_RESPONSE: null,
  DISCORD_UNAVAILABLE: msg`Discord could not be reached. Please try again in a moment.`,
  TICKET_CLOSED: msg`This ticket is closed. Open a new ticket to continue.`,
  TICKET_NOT_CLOSED: msg`A ticket can be rated once it is resolved or closed.`,
  TICKET_MERGED: null,
  TICKET_ALREADY_RATED: msg`This ticket has already been rated.`,
  MERGE_SAME_TICKET: msg`A ticket cannot be merged into itself`,
  MERGE_OTHER_OWNER: msg`Only tickets of the same requester can be merged`,
  NOT_STAFF: null,
  TOO_MANY_CANNED_REPLIES: null,
  TOO_MANY_RULES: null,
  CANNED_REPLY_NOT_FOUND: msg`That canned reply does not exist`,
  ATTACHMENTS_UNAVAILABLE: msg`Attachments are not available`,
  ATTACHMENT_TYPE_REFUSED: msg`Only PNG, JPEG, GIF and WebP images and PDF files can be attached (checked by their content).`,
  ATTACHMENT_MARKUP_REFUSED: null,
  ATTACHMENT_PDF_ACTIVE_CONTENT: null,
  ATTACHMENT_PDF_UNINSPECTABLE: msg`This PDF keeps some of its content in a compressed form that cannot be checked, so it is not accepted. Print it to a new PDF, or attach a screenshot.`,
  SELF_DEMOTION: msg`You cannot remove your own admin role`,
  SELF_DISABLE: msg`You cannot disable your own account`,
  WEBHOOK_NOT_CONFIGURED: msg`Save a webhook URL first`,
  WEBHOOK_NO_EVENTS: msg`Choose at least one event before turning the webhook on`,
  WEBHOOK_DELIVERY_BUSY: msg`This delivery is being sent right now; try again in a moment`,
  EXPORT_ALREADY_REQUESTED: null,
  EXPORT_NOT_READY: msg`This copy of your data is not ready yet.`,
  EXPORT_EXPIRED: null,
  NOTIFICATION_LOCKED: msg`Security notices always go by email and in the app; they cannot be turned off`,
};

type Details = Record<string, unknown>;
const numberIn = (details: Details, key: string): number | undefined => {
  const value = details[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};
const textIn = (details: Details, key: string): string | undefined => {
  const value = details[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
};
/** Dollars (the deposit limits' unit) as the language writes a two-decimal amount. */
const dollars = (usd: number) => formatLocaleCredits(Math.round(usd * 100));
const providerName = (details: Details) =>
  details.provider === 'telegram' ? 'Telegram' : details.provider === 'discord' ? 'Discord' : undefined;

/** How long to wait, in the largest unit that reads well: "45 seconds", "3 minutes", "2 hours". */
function waitText(seconds: number): string {
  if (seconds < 120) return plural(seconds, { one: '# second', other: '# seconds' });
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return plural(minutes, { one: '# minute', other: '# minutes' });
  const hours = Math.ceil(minutes / 60);
  return plural(hours, { one: '# hour', other: '# hours' });
}

/** Why passkeys cannot work at a bare IP address (src/shared/schemas/two-factor.ts `passkeyUnavailableReason`). */
export function passkeyBareHostText(host: string): string {
  return t`Passkeys need a domain name: browsers refuse them on a bare IP address (${host}). Open Olympus at http://localhost or on its domain to use passkeys.`;
}

/** What a refused PDF carries (src/server/modules/support/tickets/attachments.ts `PDF_ACTIVE_KINDS`). */
function pdfContentName(kind: unknown): string | undefined {
  if (kind === 'JavaScript') return 'JavaScript';
  if (kind === 'OpenAction') return t`an action that runs when it opens (OpenAction)`;
  if (kind === 'Launch') return t`an action that starts a program (Launch)`;
  if (kind === 'EmbeddedFile') return t`embedded files`;
  return undefined;
}

/**
 * The errors whose English message carries values (an amount, a limit, a time): worded from the answer's
 * `details` in the page's language, the values formatted as the language writes them. Each returns null
 * when the details it needs are missing (another place throws the code with other words), and then the
 * table above or the server's own message stands. English reads as the server's message.
 */
export const DETAILED_ERROR_MESSAGES: Partial<Record<ErrorCode, (details: Details, message: string) => string | null>> = {
  RATE_LIMITED: (d) => {
    const seconds = numberIn(d, 'retryAfter');
    if (seconds === undefined) return null;
    const wait = waitText(Math.max(1, Math.ceil(seconds)));
    return t`Too many requests. Try again in ${wait}.`;
  },
  INSUFFICIENT_CREDITS: (d) => {
    const shortfallCents = numberIn(d, 'shortfallCents');
    const balanceCents = numberIn(d, 'balanceCents');
    if (shortfallCents !== undefined) {
      const shortfall = formatLocaleCredits(shortfallCents);
      return t`Not enough credits: ${shortfall} more needed`;
    }
    if (balanceCents !== undefined) {
      const balance = formatLocaleCredits(balanceCents);
      return t`Not enough credits for this change: the balance is ${balance} credits`;
    }
    return null;
  },
  PRICE_CHANGED: (d) => {
    const priceCents = numberIn(d, 'priceCents');
    if (priceCents === undefined) return null;
    const price = formatLocaleCredits(priceCents);
    return t`The price changed to ${price} credits. Nothing was charged; confirm the new price to buy.`;
  },
  IDEMPOTENCY_KEY_REUSED: (d) => {
    const priceCents = numberIn(d, 'priceCents');
    if (priceCents === undefined) return null;
    const price = formatLocaleCredits(priceCents);
    return t`This Idempotency-Key already bought this item at ${price} credits`;
  },
  BALANCE_CHANGED: (d) => {
    const reserveCents = numberIn(d, 'campaignReserveCents');
    const balanceCents = numberIn(d, 'balanceCents');
    if (reserveCents !== undefined) {
      const reserve = formatLocaleCredits(reserveCents);
      return t`Your ad campaigns still hold ${reserve} credits, which closing forfeits with your balance. Check the figures and confirm again.`;
    }
    if (balanceCents === undefined) return null;
    const balance = formatLocaleCredits(balanceCents);
    return t`The balance is ${balance} credits now. Check the new figures and confirm again.`;
  },
  AMOUNT_OUT_OF_RANGE: (d, message) => {
    const min = numberIn(d, 'min');
    const max = numberIn(d, 'max');
    if (min === undefined || max === undefined) {
      // The exchange's refusal (src/server/modules/exchange/exchange-quotes.ts) names no limits.
      return message === 'The amount is outside the limits for this pair' ? t`The amount is outside the limits for this pair` : null;
    }
    const low = dollars(min);
    const high = dollars(max);
    return t`Amount must be between ${low} and ${high} USD`;
  },
  AMOUNT_BELOW_PROVIDER_MINIMUM: (d) => {
    const currency = textIn(d, 'currency');
    const minCents = numberIn(d, 'minCents');
    if (currency === undefined || minCents === undefined) return null;
    const minimum = formatLocaleCredits(minCents);
    return t`The minimum for ${currency} is ${minimum} USD`;
  },
  AMOUNT_BELOW_MINIMUM: (d) => exchangeLimits(d),
  AMOUNT_ABOVE_MAXIMUM: (d) => exchangeLimits(d),
  EXPORT_ALREADY_REQUESTED: (d) => {
    const next = textIn(d, 'nextRequestAt');
    if (next === undefined || Number.isNaN(Date.parse(next))) return null;
    const when = formatLocaleDateTime(next);
    return t`You can ask for one copy of your data a day. The next one can be requested after ${when}.`;
  },
  ACCOUNT_CLOSING: (d) => {
    const erasureAt = textIn(d, 'erasureAt');
    if (erasureAt === undefined || Number.isNaN(Date.parse(erasureAt))) return null;
    const day = formatLocaleDate(erasureAt.slice(0, 10));
    return t`Your account is closing on ${day}. Restore it to sign in.`;
  },
  CONNECTION_TAKEN: (d) => {
    const name = providerName(d);
    return name ? t`This ${name} account is already connected to another user.` : null;
  },
  CONNECTION_NOT_VERIFIED: (d) => {
    const name = providerName(d);
    return name ? t`This ${name} account was not verified for your session. Please connect again from your settings.` : null;
  },
  BAD_REQUEST: (d) => {
    const max = numberIn(d, 'maxPasskeys');
    return max === undefined ? null : t`You can keep at most ${max} passkeys. Remove one first.`;
  },
  CONFLICT: (d) => {
    const day = textIn(d, 'day');
    if (day === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
    const date = formatLocaleDate(day);
    return t`${date} is already a holiday`;
  },
  PASSKEYS_UNAVAILABLE: (d) => {
    const host = textIn(d, 'host');
    return host === undefined ? null : passkeyBareHostText(host);
  },
  TOO_MANY_RULES: (d) => {
    const max = numberIn(d, 'max');
    return max === undefined ? null : t`At most ${max} rules`;
  },
  TOO_MANY_CANNED_REPLIES: (d) => {
    const max = numberIn(d, 'max');
    return max === undefined ? null : t`At most ${max} canned replies`;
  },
  TICKET_MERGED: (d) => {
    const number = numberIn(d, 'ticketNumber');
    return number === undefined ? null : t`Ticket #${number} is already merged into another ticket`;
  },
  ATTACHMENT_PDF_ACTIVE_CONTENT: (d) => {
    const found = Array.isArray(d.found) ? d.found.map(pdfContentName).filter((name): name is string => name !== undefined) : [];
    if (found.length === 0) return null;
    const what = new Intl.ListFormat(pageLocale(), { type: 'conjunction' }).format(found);
    return t`PDFs with JavaScript, actions that run on opening or start programs, or embedded files are not accepted; this one has ${what}. Print it to a new PDF, or attach a screenshot.`;
  },
};

/** A pair's limits (src/server/modules/exchange/exchange-quotes.ts `assertInRange`), the amounts exactly as sent. */
function exchangeLimits(d: Details): string | null {
  const min = textIn(d, 'minAmount');
  const currency = textIn(d, 'currency');
  if (min === undefined || currency === undefined) return null;
  const low = formatLocaleCrypto(min);
  const max = textIn(d, 'maxAmount');
  if (max === undefined) return t`The minimum for this pair is ${low} ${currency}`;
  const high = formatLocaleCrypto(max);
  return t`The amount must be between ${low} ${currency} and ${high} ${currency} for this pair`;
}

/**
 * An error's words from its details in the page's language (DETAILED_ERROR_MESSAGES), or null when the
 * code has none, its details lack what the words need, or no language is active yet (a unit test).
 */
export function detailedErrorText(code: string, details: unknown, message = ''): string | null {
  if (!i18n.locale || !details || typeof details !== 'object' || Array.isArray(details)) return null;
  if (!Object.hasOwn(DETAILED_ERROR_MESSAGES, code)) return null;
  return DETAILED_ERROR_MESSAGES[code as ErrorCode]!(details as Details, message);
}

/** The client's own words when no answer came (src/web/lib/api-client.ts words them in English). */
export const CLIENT_ERROR_MESSAGES: Partial<Record<ClientErrorCode, MessageDescriptor>> = {
  [ClientErrorCode.TIMEOUT]: msg`The request timed out. Please check your connection and try again.`,
  [ClientErrorCode.NETWORK_ERROR]: msg`No response from server. Please check your connection.`,
};

/** The descriptor for a code, or null when the code is unknown or the server's own message is kept. */
export function errorMessageFor(code: string): MessageDescriptor | null {
  if (Object.hasOwn(ERROR_MESSAGES, code)) return ERROR_MESSAGES[code as ErrorCode];
  return CLIENT_ERROR_MESSAGES[code as ClientErrorCode] ?? null;
}

/**
 * The schema messages' translation, handed over by ./validation-messages.ts when it loads (with the
 * forms that can meet a VALIDATION_ERROR), so the entry, which holds this module, does not carry its table.
 */
let translateDetail: (message: string) => string = (message) => message;
export function registerValidationTranslation(translate: (message: string) => string): void {
  translateDetail = translate;
}

// src/server/plugins/errors.ts: "Invalid request: <field>: <schema message>", the field left out when the message names it.
const INVALID_REQUEST = /^Invalid request: (?:([\w.]+): )?(.+)$/s;

/**
 * A VALIDATION_ERROR's message in the page's language: the schema's message inside it translated
 * (./validation-messages.ts, once loaded), the field's name kept as the server wrote it. Anything else as it is.
 */
export function validationErrorText(code: string, message: string): string {
  const match = code === ErrorCode.VALIDATION_ERROR && i18n.locale ? INVALID_REQUEST.exec(message) : null;
  if (!match) return message;
  const field = match[1];
  const detail = `${field ? `${field}: ` : ''}${translateDetail(match[2]!)}`;
  return i18n._(msg`Invalid request: ${detail}`);
}

/**
 * The server's fixed messages' translation (codes left `null` above), handed over by ./server-messages.ts
 * when it loads, so the entry does not carry its table. Null: not known (or not loaded yet).
 */
let translateServer: (message: string) => string | null = () => null;
export function registerServerMessageTranslation(translate: (message: string) => string | null): void {
  translateServer = translate;
}

/** A server's fixed English message in the page's language (./server-messages.ts, once loaded), or null. */
export function serverMessageText(message: string): string | null {
  return i18n.locale ? translateServer(message) : null;
}
