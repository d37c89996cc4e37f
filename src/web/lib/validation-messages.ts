import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { AD_MAX_CAMPAIGN_DAYS, AD_MAX_CREATIVES, AD_MAX_FREQUENCY_CAP, AD_REJECT_REASON_MAX, AD_WEIGHT_MAX } from '#shared/ad-rules';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '#shared/constants';
import { registerValidationTranslation } from './error-messages';

/**
 * The shared schemas' validation messages (src/shared/schemas) in the page's language (decision 0326).
 * The schemas are shared with the server and stay English; the web shows each message it knows through
 * a descriptor whose English text is the schema's own, so English reads as before, and any other
 * message as it is. Keyed by the English text; a message with a value the schema computes per issue (an
 * amount) is matched by a pattern.
 */
const MESSAGES: Record<string, MessageDescriptor> = {
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
};

/**
 * Messages with a value worked out per issue (src/shared/schemas/ads.ts: `cents()` and the price rule),
 * or whose limit lives in a schema module (loading it here would bring zod into the entry).
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, (value: string) => MessageDescriptor]> = [
  [/^Keep the URL under (\d+) characters$/, (limit) => msg`Keep the URL under ${limit} characters`],
  [/^The price must be at least (\S+) credits$/, (amount) => msg`The price must be at least ${amount} credits`],
  [/^Price must be at least (\S+) credits$/, (amount) => msg`Price must be at least ${amount} credits`],
  [/^Price must be at most (\S+) credits$/, (amount) => msg`Price must be at most ${amount} credits`],
  [/^Budget must be at least (\S+) credits$/, (amount) => msg`Budget must be at least ${amount} credits`],
  [/^Budget must be at most (\S+) credits$/, (amount) => msg`Budget must be at most ${amount} credits`],
  [/^Daily budget must be at least (\S+) credits$/, (amount) => msg`Daily budget must be at least ${amount} credits`],
  [/^Daily budget must be at most (\S+) credits$/, (amount) => msg`Daily budget must be at most ${amount} credits`],
];

/** A validation message in the page's language: a shared schema's message translated, any other as it is. */
export function translateValidationMessage(message: string): string {
  // No language active yet (a unit test that never loads one): the schema's English as it is.
  if (!i18n.locale) return message;
  const known = Object.hasOwn(MESSAGES, message) ? MESSAGES[message] : undefined;
  if (known) return i18n._(known);
  for (const [pattern, descriptor] of PATTERNS) {
    const match = pattern.exec(message);
    if (match?.[1] !== undefined) return i18n._(descriptor(match[1]));
  }
  return message;
}

registerValidationTranslation(translateValidationMessage);

/** The English messages this module knows (for its test). */
export const KNOWN_VALIDATION_MESSAGES: readonly string[] = Object.keys(MESSAGES);
