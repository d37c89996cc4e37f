import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import { AD_MAX_CAMPAIGN_DAYS, AD_MAX_CREATIVES, AD_MAX_FREQUENCY_CAP, AD_REJECT_REASON_MAX, AD_WEIGHT_MAX } from '#shared/ad-rules';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#shared/constants';
import { registerValidationTranslation } from './error-messages';
import { formatLocaleCredits, formatLocaleCrypto } from './format';
// The server's fixed error messages load with the forms too (registered into ./error-messages.ts).
import './server-messages';

/**
 * The shared schemas' validation messages (src/shared/schemas) in the page's language (decision 0326).
 * The schemas are shared with the server and stay English; the web shows each message it knows through
 * a descriptor whose English text is the schema's own, so English reads as before, and any other
 * message as it is. Keyed by the English text, grouped by schema file; a message with a value the schema
 * computes per issue (an amount) or a limit kept in a schema module is matched by a pattern. The test
 * (./validation-messages.test.ts) fails when a schema's message has no entry.
 */
const MESSAGES: Record<string, MessageDescriptor> = {
  // The server's own field messages (an error answer's `details.fields`, src/server/modules/*), shown beside the field.
  'The amount is outside the limits for this pair': msg`The amount is outside the limits for this pair`,
  'Not a staff member': msg`Not a staff member`,
  'Type the account’s username exactly': msg`Type the account’s username exactly`,
  'That currency is not available': msg`That currency is not available`,
  'Current password is incorrect': msg`Current password is incorrect`,
  'An account with that email already exists': msg`An account with that email already exists`,
  'This is already your email address': msg`This is already your email address`,
  'This password is too common. Choose one that is harder to guess.': msg`This password is too common. Choose one that is harder to guess.`,
  'That password is not right': msg`That password is not right`,
  'Unknown referral code': msg`Unknown referral code`,
  'The exchange service refused this address': msg`The exchange service refused this address`,
  'This pair cannot be exchanged right now': msg`This pair cannot be exchanged right now`,
  'The bot check failed. Please try again.': msg`The bot check failed. Please try again.`,
  'That username is taken': msg`That username is taken`,
  // src/shared/schemas/common.ts
  'Unknown user': msg`Unknown user`,
  'Invalid id': msg`Invalid id`,
  'Choose a currency': msg`Choose a currency`,
  'Unknown currency': msg`Unknown currency`,
  // src/shared/schemas/auth.ts
  'Username is required': msg`Username is required`,
  'Username must be at least 3 characters': msg`Username must be at least 3 characters`,
  'Username must be at most 32 characters': msg`Username must be at most 32 characters`,
  'Username may contain only letters, digits, dots, dashes and underscores': msg`Username may contain only letters, digits, dots, dashes and underscores`,
  'Email is required': msg`Email is required`,
  'Email is too long': msg`Email is too long`,
  'Enter a valid email address': msg`Enter a valid email address`,
  'Password is required': msg`Password is required`,
  [`Password must be at least ${PASSWORD_MIN_LENGTH} characters`]: msg`Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  [`Password must be at most ${PASSWORD_MAX_LENGTH} characters`]: msg`Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
  'Invalid guest id': msg`Invalid guest id`,
  'Please complete the bot check': msg`Please complete the bot check`,
  'Invalid bot check token': msg`Invalid bot check token`,
  'Invalid referral code': msg`Invalid referral code`,
  // The server's answer to a well-formed code no account has (src/server/modules/auth/auth.service.ts).
  'Choose one of the languages offered': msg`Choose one of the languages offered`,
  // src/shared/schemas/ads.ts
  'Image address must be at most 2000 characters': msg`Image address must be at most 2000 characters`,
  'Image address must not contain spaces or line breaks': msg`Image address must not contain spaces or line breaks`,
  'Image address must be an https address': msg`Image address must be an https address`,
  'Target address is required': msg`Target address is required`,
  'Target address must be at most 2000 characters': msg`Target address must be at most 2000 characters`,
  'Target address must not contain spaces or line breaks': msg`Target address must not contain spaces or line breaks`,
  'Target address must be an http or https address': msg`Target address must be an http or https address`,
  'Use a full date and time (ISO 8601)': msg`Use a full date and time (ISO 8601)`,
  'Title is required': msg`Title is required`,
  'Title must be at least 2 characters': msg`Title must be at least 2 characters`,
  'Title must be at most 80 characters': msg`Title must be at most 80 characters`,
  'Text must be at most 280 characters': msg`Text must be at most 280 characters`,
  'Image description must be at most 200 characters': msg`Image description must be at most 200 characters`,
  'Weight must be a whole number': msg`Weight must be a whole number`,
  'Weight must be at least 1': msg`Weight must be at least 1`,
  [`Weight must be at most ${AD_WEIGHT_MAX}`]: msg`Weight must be at most ${AD_WEIGHT_MAX}`,
  'An image ad needs an image address': msg`An image ad needs an image address`,
  'Describe the image for people who cannot see it': msg`Describe the image for people who cannot see it`,
  'The end must be after the start': msg`The end must be after the start`,
  'Nothing to change': msg`Nothing to change`,
  'Unknown ad': msg`Unknown ad`,
  'Unknown ad image': msg`Unknown ad image`,
  'Name is required': msg`Name is required`,
  'Name must be at least 2 characters': msg`Name must be at least 2 characters`,
  'Name must be at most 80 characters': msg`Name must be at most 80 characters`,
  'Choose at least one placement': msg`Choose at least one placement`,
  'Price is required': msg`Price is required`,
  'Price must be whole cents': msg`Price must be whole cents`,
  'Budget is required': msg`Budget is required`,
  'Budget must be whole cents': msg`Budget must be whole cents`,
  'Daily budget is required': msg`Daily budget is required`,
  'Daily budget must be whole cents': msg`Daily budget must be whole cents`,
  'Use a whole number': msg`Use a whole number`,
  'At least 1 a day': msg`At least 1 a day`,
  [`At most ${AD_MAX_FREQUENCY_CAP} a day`]: msg`At most ${AD_MAX_FREQUENCY_CAP} a day`,
  'Add at least one creative': msg`Add at least one creative`,
  [`At most ${AD_MAX_CREATIVES} creatives`]: msg`At most ${AD_MAX_CREATIVES} creatives`,
  'Each placement once': msg`Each placement once`,
  [`A campaign runs at most ${AD_MAX_CAMPAIGN_DAYS} days`]: msg`A campaign runs at most ${AD_MAX_CAMPAIGN_DAYS} days`,
  'The daily budget cannot be more than the total budget': msg`The daily budget cannot be more than the total budget`,
  'Unknown campaign': msg`Unknown campaign`,
  'Give a reason': msg`Give a reason`,
  [`At most ${AD_REJECT_REASON_MAX} characters`]: msg`At most ${AD_REJECT_REASON_MAX} characters`,
  // src/shared/schemas/account-closure.ts (its password and username messages are auth.ts's)
  'Confirm the balance you forfeit': msg`Confirm the balance you forfeit`,
  'Whole cents only': msg`Whole cents only`,
  'Confirm the campaign budgets you forfeit': msg`Confirm the campaign budgets you forfeit`,
  'Say how the money was sent back': msg`Say how the money was sent back`,
  'Type the username to confirm': msg`Type the username to confirm`,
  // src/shared/schemas/admin.ts (and 'Give a reason', above)
  'Subroles are lower-case words': msg`Subroles are lower-case words`,
  // src/shared/schemas/catalogue.ts
  'Enter a name': msg`Enter a name`,
  'Keep the name under 120 characters': msg`Keep the name under 120 characters`,
  'Enter a description': msg`Enter a description`,
  'Keep the description under 2000 characters': msg`Keep the description under 2000 characters`,
  'Enter a price in cents': msg`Enter a price in cents`,
  'The price is a whole number of cents': msg`The price is a whole number of cents`,
  'The price is at least 1 cent': msg`The price is at least 1 cent`,
  'That price is too large': msg`That price is too large`,
  'Enter the stock, or leave it empty for unlimited': msg`Enter the stock, or leave it empty for unlimited`,
  'Stock is a whole number': msg`Stock is a whole number`,
  'Stock cannot be negative': msg`Stock cannot be negative`,
  'That stock is too large': msg`That stock is too large`,
  'Change at least one field': msg`Change at least one field`,
  'Unknown item': msg`Unknown item`,
  'Send expectedPriceCents: the price in cents you confirmed': msg`Send expectedPriceCents: the price in cents you confirmed`,
  'expectedPriceCents is a whole number of cents': msg`expectedPriceCents is a whole number of cents`,
  'expectedPriceCents cannot be negative': msg`expectedPriceCents cannot be negative`,
  'expectedPriceCents is too large': msg`expectedPriceCents is too large`,
  'Send an Idempotency-Key header (8-100 letters, digits, - or _)': msg`Send an Idempotency-Key header (8-100 letters, digits, - or _)`,
  'The Idempotency-Key header must be 8-100 letters, digits, - or _': msg`The Idempotency-Key header must be 8-100 letters, digits, - or _`,
  // src/shared/schemas/charges.ts (its metadata key limit is a pattern, below)
  'Give the key a name': msg`Give the key a name`,
  'Keep the name under 80 characters': msg`Keep the name under 80 characters`,
  'At least 1 call a minute': msg`At least 1 call a minute`,
  'At most 10000 calls a minute': msg`At most 10000 calls a minute`,
  'Metadata keys are 1-40 letters, digits, _ . or -': msg`Metadata keys are 1-40 letters, digits, _ . or -`,
  'Metadata values are at most 500 characters': msg`Metadata values are at most 500 characters`,
  'amountCents must be a number': msg`amountCents must be a number`,
  'amountCents must be a whole number of cents': msg`amountCents must be a whole number of cents`,
  'amountCents must be at least 1': msg`amountCents must be at least 1`,
  'amountCents is at most 100000000 (1,000,000 credits)': msg`amountCents is at most 100000000 (1,000,000 credits)`,
  'Give a description': msg`Give a description`,
  'Keep the description under 200 characters': msg`Keep the description under 200 characters`,
  'The Idempotency-Key header is required': msg`The Idempotency-Key header is required`,
  'The Idempotency-Key header is at most 255 characters': msg`The Idempotency-Key header is at most 255 characters`,
  'The Idempotency-Key header takes printable ASCII without spaces': msg`The Idempotency-Key header takes printable ASCII without spaces`,
  // src/shared/schemas/connections.ts
  'Invalid Discord id': msg`Invalid Discord id`,
  'Authorization code is required': msg`Authorization code is required`,
  'OAuth state is required': msg`OAuth state is required`,
  'Invalid Telegram id': msg`Invalid Telegram id`,
  'Invalid auth_date': msg`Invalid auth_date`,
  'hash is required': msg`hash is required`,
  // src/shared/schemas/credits.ts (debts.ts has only 'Unknown user', above)
  'Enter an amount': msg`Enter an amount`,
  'Enter a non-zero amount': msg`Enter a non-zero amount`,
  'Use at most two decimals (cents)': msg`Use at most two decimals (cents)`,
  'That amount is too large': msg`That amount is too large`,
  'Keep the reason under 500 characters': msg`Keep the reason under 500 characters`,
  'Keep the note under 200 characters': msg`Keep the note under 200 characters`,
  'Say why': msg`Say why`,
  'Say why (at least 3 characters)': msg`Say why (at least 3 characters)`,
  'Keep it under 500 characters': msg`Keep it under 500 characters`,
  'Give a start date': msg`Give a start date`,
  'from must be a date (YYYY-MM-DD)': msg`from must be a date (YYYY-MM-DD)`,
  'Give an end date': msg`Give an end date`,
  'to must be a date (YYYY-MM-DD)': msg`to must be a date (YYYY-MM-DD)`,
  'The end date must not be before the start date': msg`The end date must not be before the start date`,
  // src/shared/schemas/exchange.ts
  'Enter an amount greater than zero': msg`Enter an amount greater than zero`,
  'Use at most 8 decimals': msg`Use at most 8 decimals`,
  'Choose a floating or a fixed rate': msg`Choose a floating or a fixed rate`,
  'Enter your payout address': msg`Enter your payout address`,
  'That address is too long': msg`That address is too long`,
  'That memo is too long': msg`That memo is too long`,
  'Unknown fixed rate': msg`Unknown fixed rate`,
  // src/shared/schemas/help.ts (its limits from help.ts itself are patterns, below)
  'Enter an address': msg`Enter an address`,
  'The address must be at least 3 characters': msg`The address must be at least 3 characters`,
  'The address must be at most 80 characters': msg`The address must be at most 80 characters`,
  'Use lower-case letters, digits and single hyphens': msg`Use lower-case letters, digits and single hyphens`,
  'Type a few words': msg`Type a few words`,
  'Say whether it helped': msg`Say whether it helped`,
  'Enter a category': msg`Enter a category`,
  'Enter a title': msg`Enter a title`,
  'The title must be at least 3 characters': msg`The title must be at least 3 characters`,
  'Write the article': msg`Write the article`,
  'Choose draft or published': msg`Choose draft or published`,
  // src/shared/schemas/mail.ts
  'The link is missing its token': msg`The link is missing its token`,
  'This link is not valid': msg`This link is not valid`,
  'Current password is required': msg`Current password is required`,
  // src/shared/schemas/notifications.ts
  'Invalid cursor': msg`Invalid cursor`,
  // src/shared/schemas/common.ts (INVALID_CURSOR_MESSAGE: the ledger history's cursor, docs/decisions/0333)
  'Invalid cursor: pass the nextCursor of a previous page': msg`Invalid cursor: pass the nextCursor of a previous page`,
  'Invalid notification id': msg`Invalid notification id`,
  'Choose at least one notification': msg`Choose at least one notification`,
  // src/shared/schemas/payments.ts
  'Enter an amount in USD': msg`Enter an amount in USD`,
  'Unknown payment': msg`Unknown payment`,
  'Enter the transaction hash': msg`Enter the transaction hash`,
  'That transaction hash is too long': msg`That transaction hash is too long`,
  'A transaction hash has only letters and digits': msg`A transaction hash has only letters and digits`,
  // src/shared/schemas/status.ts
  'Message is required': msg`Message is required`,
  'Message must be at least 3 characters': msg`Message must be at least 3 characters`,
  'Message must be at most 2000 characters': msg`Message must be at most 2000 characters`,
  'Title must be at least 3 characters': msg`Title must be at least 3 characters`,
  'Title must be at most 120 characters': msg`Title must be at most 120 characters`,
  'Unknown incident': msg`Unknown incident`,
  'Enter a date and time': msg`Enter a date and time`,
  'Description is required': msg`Description is required`,
  'Description must be at least 3 characters': msg`Description must be at least 3 characters`,
  'Description must be at most 2000 characters': msg`Description must be at most 2000 characters`,
  'Unknown maintenance': msg`Unknown maintenance`,
  'The link is incomplete': msg`The link is incomplete`,
  // src/shared/schemas/support-rules.ts (support-reports.ts's are credits.ts's, and its day limit a pattern)
  'Tag is required': msg`Tag is required`,
  'A tag uses letters, digits, "-" and "_" only': msg`A tag uses letters, digits, "-" and "_" only`,
  'Hours must be a whole number': msg`Hours must be a whole number`,
  'At least 1 business hour': msg`At least 1 business hour`,
  'Text is required': msg`Text is required`,
  'Choose at least one priority': msg`Choose at least one priority`,
  'Add at least one action': msg`Add at least one action`,
  'Days must be a whole number': msg`Days must be a whole number`,
  'At least 0 days': msg`At least 0 days`,
  // src/shared/schemas/support-sla.ts: `timeField('start')` and `timeField('end')`
  'Enter the start time': msg`Enter the start time`,
  'Enter the end time': msg`Enter the end time`,
  'Enter the start time as HH:MM, e.g. 09:00': msg`Enter the start time as HH:MM, e.g. 09:00`,
  'Enter the end time as HH:MM, e.g. 09:00': msg`Enter the end time as HH:MM, e.g. 09:00`,
  'Enter a time zone': msg`Enter a time zone`,
  'Unknown time zone': msg`Unknown time zone`,
  'Unknown time zone: use an IANA name such as Europe/Berlin': msg`Unknown time zone: use an IANA name such as Europe/Berlin`,
  'A weekday is a number from 1 (Monday) to 7 (Sunday)': msg`A weekday is a number from 1 (Monday) to 7 (Sunday)`,
  'Choose the working days': msg`Choose the working days`,
  'Choose at least one working day': msg`Choose at least one working day`,
  'Each weekday once': msg`Each weekday once`,
  'The day must end after it starts: a calendar with no working time is refused': msg`The day must end after it starts: a calendar with no working time is refused`,
  'Enter the date as YYYY-MM-DD': msg`Enter the date as YYYY-MM-DD`,
  'Name the holiday': msg`Name the holiday`,
  'Enter the target in minutes, or none': msg`Enter the target in minutes, or none`,
  'Whole minutes': msg`Whole minutes`,
  'A target is at least one minute': msg`A target is at least one minute`,
  'Give at least one priority': msg`Give at least one priority`,
  'Each priority once': msg`Each priority once`,
  // src/shared/schemas/tickets.ts
  'Subject is required': msg`Subject is required`,
  'Subject must be at least 3 characters': msg`Subject must be at least 3 characters`,
  'Score must be a whole number from 1 to 5': msg`Score must be a whole number from 1 to 5`,
  'File name is required': msg`File name is required`,
  'File name must be at most 200 characters': msg`File name must be at most 200 characters`,
  // src/shared/schemas/two-factor.ts
  'Enter the 6-digit code': msg`Enter the 6-digit code`,
  'Enter the 6-digit code from your authenticator app': msg`Enter the 6-digit code from your authenticator app`,
  'Enter a recovery code': msg`Enter a recovery code`,
  'That is not a recovery code': msg`That is not a recovery code`,
  'Enter a code from your authenticator app or a recovery code': msg`Enter a code from your authenticator app or a recovery code`,
  'That code is not valid': msg`That code is not valid`,
  'The sign-in challenge is missing': msg`The sign-in challenge is missing`,
  'Send one of code, recoveryCode or passkey': msg`Send one of code, recoveryCode or passkey`,
  'Name the passkey': msg`Name the passkey`,
  'Use at most 60 characters': msg`Use at most 60 characters`,
  'A reason is required': msg`A reason is required`,
  // src/shared/schemas/webhooks.ts
  'Enter the URL that should receive webhooks': msg`Enter the URL that should receive webhooks`,
  'Enter a full URL, like https://example.com/webhooks': msg`Enter a full URL, like https://example.com/webhooks`,
  'The URL must start with https://': msg`The URL must start with https://`,
  'Leave credentials out of the URL; verify the signature instead': msg`Leave credentials out of the URL; verify the signature instead`,
  'Remove the #fragment from the URL': msg`Remove the #fragment from the URL`,
  'Unknown event': msg`Unknown event`,
  'Choose the events to receive': msg`Choose the events to receive`,
  'Each event can be chosen once': msg`Each event can be chosen once`,
  'Choose at least one event, or turn the webhook off': msg`Choose at least one event, or turn the webhook off`,
  'enabled must be true or false': msg`enabled must be true or false`,
};

/** src/server/plugins/strict-input.ts's names for what has no field name; a field's own name is kept as it is. */
const INPUT_LABELS: Record<string, MessageDescriptor> = {
  'The body': msg`The body`,
  'The value': msg`The value`,
  'A field name': msg`A field name`,
};
const inputLabel = (label: string): string => (i18n.locale && Object.hasOwn(INPUT_LABELS, label) ? i18n._(INPUT_LABELS[label]!) : label);

/**
 * Messages with a value worked out per issue (src/shared/schemas/ads.ts: `cents()` and the price rule),
 * or whose limit lives in a schema module (loading it here would bring zod into the entry).
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, (value: string) => MessageDescriptor]> = [
  // src/shared/schemas/ads.ts
  [/^The price must be at least (\S+) credits$/, (amount) => msg`The price must be at least ${amount} credits`],
  [/^Price must be at least (\S+) credits$/, (amount) => msg`Price must be at least ${amount} credits`],
  [/^Price must be at most (\S+) credits$/, (amount) => msg`Price must be at most ${amount} credits`],
  [/^Budget must be at least (\S+) credits$/, (amount) => msg`Budget must be at least ${amount} credits`],
  [/^Budget must be at most (\S+) credits$/, (amount) => msg`Budget must be at most ${amount} credits`],
  [/^Daily budget must be at least (\S+) credits$/, (amount) => msg`Daily budget must be at least ${amount} credits`],
  [/^Daily budget must be at most (\S+) credits$/, (amount) => msg`Daily budget must be at most ${amount} credits`],
  // src/shared/schemas/charges.ts
  [/^At most (\d+) metadata keys$/, (limit) => msg`At most ${limit} metadata keys`],
  // src/shared/schemas/help.ts
  [/^Search at most (\d+) characters$/, (limit) => msg`Search at most ${limit} characters`],
  [/^A category is at most (\d+) characters$/, (limit) => msg`A category is at most ${limit} characters`],
  [/^The title must be at most (\d+) characters$/, (limit) => msg`The title must be at most ${limit} characters`],
  [/^An article is at most (\d+) characters$/, (limit) => msg`An article is at most ${limit} characters`],
  // src/shared/schemas/support-reports.ts
  [/^A report covers at most (\d+) days$/, (limit) => msg`A report covers at most ${limit} days`],
  // src/shared/schemas/support-rules.ts (its rule name limit reads as ads.ts's "Name must be at most 80 characters")
  [/^A tag is at most (\d+) characters$/, (limit) => msg`A tag is at most ${limit} characters`],
  [/^At most (\d+) tags$/, (limit) => msg`At most ${limit} tags`],
  [/^At most (\d+) conditions$/, (limit) => msg`At most ${limit} conditions`],
  [/^At most (\d+) actions$/, (limit) => msg`At most ${limit} actions`],
  [/^At most (\d+) days$/, (limit) => msg`At most ${limit} days`],
  // src/shared/schemas/support-rules.ts and support-sla.ts
  [/^At most (\d+) business hours$/, (limit) => msg`At most ${limit} business hours`],
  [/^At most (\d+) characters$/, (limit) => msg`At most ${limit} characters`],
  // src/shared/schemas/tickets.ts (its canned reply title limit reads as ads.ts's "Title must be at most 80 characters")
  [/^Message must be at most (\d+) characters$/, (limit) => msg`Message must be at most ${limit} characters`],
  [/^Subject must be at most (\d+) characters$/, (limit) => msg`Subject must be at most ${limit} characters`],
  [/^Comment must be at most (\d+) characters$/, (limit) => msg`Comment must be at most ${limit} characters`],
  // src/shared/schemas/webhooks.ts
  [/^Keep the URL under (\d+) characters$/, (limit) => msg`Keep the URL under ${limit} characters`],
  // src/shared/schemas/common.ts `textProblem()`, which src/server/plugins/strict-input.ts puts after the
  // field's name ("subject must be a single line (no line breaks or tabs)") or its own words for the whole body.
  [
    /^(.+) must not contain a NUL character$/,
    (value) => {
      const field = inputLabel(value);
      return msg`${field} must not contain a NUL character`;
    },
  ],
  [
    /^(.+) must be a single line \(no line breaks or tabs\)$/,
    (value) => {
      const field = inputLabel(value);
      return msg`${field} must be a single line (no line breaks or tabs)`;
    },
  ],
  [
    /^(.+) must not contain control characters$/,
    (value) => {
      const field = inputLabel(value);
      return msg`${field} must not contain control characters`;
    },
  ],
  [
    /^(.+) must be valid Unicode text \(lone surrogate\)$/,
    (value) => {
      const field = inputLabel(value);
      return msg`${field} must be valid Unicode text (lone surrogate)`;
    },
  ],
];

/** A type zod names in its own messages, as the page's language says what was expected. */
function zodTypeName(type: string): string {
  switch (type) {
    case 'string':
      return t`text`;
    case 'number':
    case 'int':
      return t`a number`;
    case 'boolean':
      return t`yes or no`;
    case 'array':
      return t`a list`;
    case 'object':
      return t`a set of fields`;
    case 'date':
      return t`a date`;
    default:
      return t`another kind of value`;
  }
}

/** A format zod names in its own "Invalid …" message (its FormatDictionary). */
function zodFormatText(format: string): string {
  switch (format) {
    case 'email address':
      return i18n._(msg`Enter a valid email address`);
    case 'URL':
      return t`Enter a valid web address`;
    case 'ISO datetime':
      return i18n._(msg`Use a full date and time (ISO 8601)`);
    case 'ISO date':
      return i18n._(msg`Enter the date as YYYY-MM-DD`);
    case 'UUID':
    case 'UUIDv4':
    case 'UUIDv6':
    case 'GUID':
      return i18n._(msg`Invalid id`);
    default:
      return t`This value is not in the expected format`;
  }
}

const LESS_OR_MORE = '(>=|>|<=|<|exactly )';
/** A bound of zod's "Too small/big" message as a whole number the words can count with ("<5" is at most 4). */
const inclusiveBound = (sign: string, value: string): number => {
  const n = Number(value);
  return sign === '>' ? n + 1 : sign === '<' ? n - 1 : n;
};

/**
 * zod's own English for a check that was given no message (its en locale, zod/v4/locales/en.js: "Invalid
 * input: expected string, received undefined", "Too small: expected string to have >=1 characters"),
 * matched by its shape and worded in the page's language. A schema field should carry its own message;
 * this keeps one that does not from reaching a reader in English.
 */
const ZOD_DEFAULTS: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => string]> = [
  [/^Invalid input: expected \w+, received undefined$/, () => t`This field is required`],
  [
    /^Invalid input: expected (\w+), received \w+$/,
    (m) => {
      const expected = zodTypeName(m[1]!);
      return t`Invalid value: expected ${expected}`;
    },
  ],
  [
    new RegExp(`^Too small: expected string to have ${LESS_OR_MORE}(\\d+) characters$`),
    (m) => {
      const count = inclusiveBound(m[1]!, m[2]!);
      if (m[1] === 'exactly ') return plural(count, { one: 'Use exactly # character', other: 'Use exactly # characters' });
      return count <= 1
        ? t`This field is required`
        : plural(count, { one: 'Use at least # character', other: 'Use at least # characters' });
    },
  ],
  [
    new RegExp(`^Too big: expected string to have ${LESS_OR_MORE}(\\d+) characters$`),
    (m) => {
      const count = inclusiveBound(m[1]!, m[2]!);
      if (m[1] === 'exactly ') return plural(count, { one: 'Use exactly # character', other: 'Use exactly # characters' });
      return plural(count, { one: 'Use at most # character', other: 'Use at most # characters' });
    },
  ],
  [
    new RegExp(`^Too small: expected (?:array|set) to have ${LESS_OR_MORE}(\\d+) items$`),
    (m) => {
      const count = inclusiveBound(m[1]!, m[2]!);
      return plural(count, { one: 'Give at least # item', other: 'Give at least # items' });
    },
  ],
  [
    new RegExp(`^Too big: expected (?:array|set) to have ${LESS_OR_MORE}(\\d+) items$`),
    (m) => {
      const count = inclusiveBound(m[1]!, m[2]!);
      return plural(count, { one: 'Give at most # item', other: 'Give at most # items' });
    },
  ],
  [
    /^Too small: expected \w+ to be (>=|>)(.+)$/,
    (m) => {
      const limit = m[2]!;
      return m[1] === '>' ? t`Must be more than ${limit}` : t`Must be at least ${limit}`;
    },
  ],
  [
    /^Too big: expected \w+ to be (<=|<)(.+)$/,
    (m) => {
      const limit = m[2]!;
      return m[1] === '<' ? t`Must be less than ${limit}` : t`Must be at most ${limit}`;
    },
  ],
  [/^Too (?:small|big): /, () => t`This value is out of range`],
  [
    /^Invalid number: must be a multiple of (.+)$/,
    (m) => {
      const step = m[1]!;
      return t`Must be a multiple of ${step}`;
    },
  ],
  [/^Invalid option: expected one of /, () => t`Choose one of the options offered`],
  [/^Invalid string: must /, () => t`This value is not in the expected format`],
  [
    /^Unrecognized keys?: (.+)$/,
    (m) => {
      const keys = m[1]!;
      return t`Unknown field: ${keys}`;
    },
  ],
  [/^Invalid (?:input|key in \w+|value in \w+|discriminator value\..*)(?:: .*)?$/, () => t`Invalid value`],
  [
    // zod's FormatDictionary (zod/v4/locales/en.js), each the whole message after "Invalid ".
    /^Invalid (email address|URL|emoji|UUID|UUIDv4|UUIDv6|nanoid|GUID|cuid|cuid2|ULID|XID|KSUID|ISO datetime|ISO date|ISO time|ISO duration|IPv4 address|IPv6 address|MAC address|IPv4 range|IPv6 range|base64-encoded string|base64url-encoded string|JSON string|E\.164 number|currency code|credit card number|IBAN|JWT)$/,
    (m) => zodFormatText(m[1]!),
  ],
];

const zodDefaultFor = (message: string): (() => string) | undefined => {
  for (const [pattern, words] of [...FIELD_MESSAGES_WITH_VALUES, ...ZOD_DEFAULTS]) {
    const match = pattern.exec(message);
    if (match) return () => words(match);
  }
  return undefined;
};

/** A two-decimal amount as the server writes it ("10000.00"), as the language writes it. */
const localeCents = (amount: string): string => formatLocaleCredits(Math.round(Number(amount) * 100));

/**
 * The server's field messages that carry amounts (src/server/modules/payments/deposits.ts,
 * src/server/modules/exchange/exchange-quotes.ts), worded in the page's language with the amounts as it writes them.
 */
const FIELD_MESSAGES_WITH_VALUES: ReadonlyArray<readonly [RegExp, (match: RegExpExecArray) => string]> = [
  [
    /^Enter an amount from (\d+\.\d{2}) to (\d+\.\d{2}) USD$/,
    (m) => {
      const min = localeCents(m[1]!);
      const max = localeCents(m[2]!);
      return t`Enter an amount from ${min} to ${max} USD`;
    },
  ],
  [
    /^The minimum for (\w+) is (\d+\.\d{2}) USD$/,
    (m) => {
      const currency = m[1]!;
      const minimum = localeCents(m[2]!);
      return t`The minimum for ${currency} is ${minimum} USD`;
    },
  ],
  [
    /^The minimum for this pair is ([\d.]+) (\w+)$/,
    (m) => {
      const low = formatLocaleCrypto(m[1]!);
      const currency = m[2]!;
      return t`The minimum for this pair is ${low} ${currency}`;
    },
  ],
  [
    /^The amount must be between ([\d.]+) (\w+) and ([\d.]+) \2 for this pair$/,
    (m) => {
      const low = formatLocaleCrypto(m[1]!);
      const currency = m[2]!;
      const high = formatLocaleCrypto(m[3]!);
      return t`The amount must be between ${low} ${currency} and ${high} ${currency} for this pair`;
    },
  ],
];

const descriptorFor = (message: string): MessageDescriptor | undefined => {
  if (Object.hasOwn(MESSAGES, message)) return MESSAGES[message];
  for (const [pattern, descriptor] of PATTERNS) {
    const match = pattern.exec(message);
    if (match?.[1] !== undefined) return descriptor(match[1]);
  }
  return undefined;
};

/** A validation message in the page's language: a shared schema's message translated, any other as it is. */
export function translateValidationMessage(message: string): string {
  // No language active yet (a unit test that never loads one): the schema's English as it is.
  if (!i18n.locale) return message;
  const known = descriptorFor(message);
  if (known) return i18n._(known);
  const zodDefault = zodDefaultFor(message);
  return zodDefault ? zodDefault() : message;
}

/** Whether a message has its translation here, as a key or through a pattern (for the test). */
export const hasValidationTranslation = (message: string): boolean => descriptorFor(message) !== undefined;

/** Whether a message is zod's own English for a check without a message, worded here by its shape (for the test). */
export const isTranslatedZodDefault = (message: string): boolean => zodDefaultFor(message) !== undefined;

registerValidationTranslation(translateValidationMessage);

/** The English messages this module knows (for its test). */
export const KNOWN_VALIDATION_MESSAGES: readonly string[] = Object.keys(MESSAGES);
