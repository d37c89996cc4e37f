import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { registerServerMessageTranslation } from './error-messages';

/**
 * The server's fixed English error messages (`badRequest('…')`, `conflict('…')`, `notFound('…')`,
 * `unprocessable('…')`, `new AppError('CODE', '…')` in src/server) for the codes whose words
 * ./error-messages.ts leaves to the server (`null` in ERROR_MESSAGES), in the page's language.
 * Keyed by the server's exact English, so English reads as before; a message the table does not know
 * stays as the server wrote it. It reaches ./error-messages.ts when this module loads (with the forms,
 * through ./validation-messages.ts, or with a page that imports it), so the entry does not carry it.
 * The test (./server-messages.test.ts) reads the server's source and fails when a message is missing.
 */
const SERVER_MESSAGES: Record<string, MessageDescriptor> = {
  // src/server/errors.ts: the defaults of forbidden(), notFound() and serviceUnavailable()
  'You do not have access to this resource': msg`You do not have access to this resource`,
  'Not found': msg`Not found`,
  'Service temporarily unavailable': msg`Service temporarily unavailable`,
  // src/server/modules/account-closure
  'No closing account with this id': msg`No closing account with this id`,
  'That password is not right': msg`That password is not right`,
  'This account is already closing': msg`This account is already closing`,
  'This account is not closing: sign in as usual.': msg`This account is not closing: sign in as usual.`,
  'This account is being erased and can no longer be restored.': msg`This account is being erased and can no longer be restored.`,
  'The username typed does not match this account': msg`The username typed does not match this account`,
  // src/server/modules/admin
  'Payment not found': msg`Payment not found`,
  'Exchange not found': msg`Exchange not found`,
  'User not found': msg`User not found`,
  'You cannot remove your own admin role': msg`You cannot remove your own admin role`,
  'You cannot disable your own account': msg`You cannot disable your own account`,
  // src/server/modules/ads
  'Image not found': msg`Image not found`,
  'Ad not found': msg`Ad not found`,
  'Creative not found': msg`Creative not found`,
  'This request id was already used for another campaign': msg`This request id was already used for another campaign`,
  'Campaign not found': msg`Campaign not found`,
  // src/server/modules/api-keys
  'API key not found': msg`API key not found`,
  // src/server/modules/auth
  'This call is for guest sessions': msg`This call is for guest sessions`,
  'Sign in to use this feature': msg`Sign in to use this feature`,
  'Guest sessions do not refresh tokens': msg`Guest sessions do not refresh tokens`,
  'Session not found': msg`Session not found`,
  'This password is too common. Choose one that is harder to guess.': msg`This password is too common. Choose one that is harder to guess.`,
  'Unknown referral code': msg`Unknown referral code`,
  'This account is disabled. Contact support.': msg`This account is disabled. Contact support.`,
  'Current password is incorrect': msg`Current password is incorrect`,
  'This is already your email address': msg`This is already your email address`,
  'An account with that email already exists': msg`An account with that email already exists`,
  // src/server/modules/catalogue
  'Item not found': msg`Item not found`,
  'This item is not available': msg`This item is not available`,
  'Order not found': msg`Order not found`,
  'This order was already refunded': msg`This order was already refunded`,
  'This Idempotency-Key was already used to buy another item': msg`This Idempotency-Key was already used to buy another item`,
  // src/server/modules/charges
  'Charge not found': msg`Charge not found`,
  'This account is disabled and cannot be charged': msg`This account is disabled and cannot be charged`,
  'Not enough credits for this charge': msg`Not enough credits for this charge`,
  'A request with this Idempotency-Key is still being processed; try again': msg`A request with this Idempotency-Key is still being processed; try again`,
  'This Idempotency-Key was already used with a different request body': msg`This Idempotency-Key was already used with a different request body`,
  'This account is closing and cannot be charged': msg`This account is closing and cannot be charged`,
  'This charge was already refunded': msg`This charge was already refunded`,
  // src/server/modules/connections
  'Discord answered unexpectedly. Please try again later.': msg`Discord answered unexpectedly. Please try again later.`,
  'Discord did not return your account. Please try again.': msg`Discord did not return your account. Please try again.`,
  // src/server/modules/credits
  'Adjustment request not found': msg`Adjustment request not found`,
  'This key was already used for another adjustment': msg`This key was already used for another adjustment`,
  'This reference was already used for a different ledger entry': msg`This reference was already used for a different ledger entry`,
  'Not enough credits for this change': msg`Not enough credits for this change`,
  'Ledger entry could not be posted; try again': msg`Ledger entry could not be posted; try again`,
  // src/server/modules/exchange
  'The exchange service refused the payout address': msg`The exchange service refused the payout address`,
  'The amount is outside the limits for this pair': msg`The amount is outside the limits for this pair`,
  'That fixed rate is not known': msg`That fixed rate is not known`,
  'That fixed rate has expired': msg`That fixed rate has expired`,
  'The exchange service refused the refund address': msg`The exchange service refused the refund address`,
  'This pair cannot be exchanged right now': msg`This pair cannot be exchanged right now`,
  'Rewards can only be claimed for your own account': msg`Rewards can only be claimed for your own account`,
  // src/server/modules/mail
  'The link is missing its token': msg`The link is missing its token`,
  'This account no longer exists': msg`This account no longer exists`,
  'No failed message with this id can be sent again': msg`No failed message with this id can be sent again`,
  'This unsubscribe link is not valid. Change your notifications in your settings instead.': msg`This unsubscribe link is not valid. Change your notifications in your settings instead.`,
  // src/server/modules/payments
  'That currency is not available': msg`That currency is not available`,
  'No late payment with this id': msg`No late payment with this id`,
  'This payment was already recorded as refunded': msg`This payment was already recorded as refunded`,
  // src/server/modules/privacy
  'Export not found': msg`Export not found`,
  'This copy of your data has expired. Request a new one.': msg`This copy of your data has expired. Request a new one.`,
  'This copy of your data is no longer available. Request a new one.': msg`This copy of your data is no longer available. Request a new one.`,
  // src/server/modules/receipts
  'Receipt not found': msg`Receipt not found`,
  // src/server/modules/referrals
  'Referral not found': msg`Referral not found`,
  'This referral is already refused': msg`This referral is already refused`,
  'This referral already paid its referrer: reverse it instead': msg`This referral already paid its referrer: reverse it instead`,
  'This referral is already reversed': msg`This referral is already reversed`,
  // src/server/modules/status
  'Unknown maintenance': msg`Unknown maintenance`,
  'This maintenance was cancelled.': msg`This maintenance was cancelled.`,
  'This maintenance is over and can no longer be changed.': msg`This maintenance is over and can no longer be changed.`,
  'The end must be after the start': msg`The end must be after the start`,
  'This confirmation link is not valid (any more). Subscribe again on the status page.': msg`This confirmation link is not valid (any more). Subscribe again on the status page.`,
  'This unsubscribe link is not valid.': msg`This unsubscribe link is not valid.`,
  'The link is incomplete': msg`The link is incomplete`,
  'Incident not found': msg`Incident not found`,
  // src/server/modules/support
  'No such article': msg`No such article`,
  'This article has no translation in this language': msg`This article has no translation in this language`,
  'There is no article at this address': msg`There is no article at this address`,
  'Another article already has this address': msg`Another article already has this address`,
  'Tickets can be assigned only to an active support or admin account': msg`Tickets can be assigned only to an active support or admin account`,
  'That canned reply does not exist': msg`That canned reply does not exist`,
  'Rule not found': msg`Rule not found`,
  'Ticket not found': msg`Ticket not found`,
  'No holiday on that date': msg`No holiday on that date`,
  'This calendar has no working time': msg`This calendar has no working time`,
  'The file is empty: send the file itself as the request body': msg`The file is empty: send the file itself as the request body`,
  'Files can be at most 10 MB': msg`Files can be at most 10 MB`,
  'This file carries HTML or SVG behind an image or PDF header and is not accepted.': msg`This file carries HTML or SVG behind an image or PDF header and is not accepted.`,
  'HTML, SVG and other markup files are not accepted, whatever their name. Attach a PNG, JPEG, GIF, WebP image or a PDF.': msg`HTML, SVG and other markup files are not accepted, whatever their name. Attach a PNG, JPEG, GIF, WebP image or a PDF.`,
  'Canned reply not found': msg`Canned reply not found`,
  'This ticket is closed. Open a new ticket to continue.': msg`This ticket is closed. Open a new ticket to continue.`,
  'This ticket was merged into another one: continue there.': msg`This ticket was merged into another one: continue there.`,
  'This ticket was merged into another one: rate that one instead.': msg`This ticket was merged into another one: rate that one instead.`,
  'A ticket can be rated once it is resolved or closed.': msg`A ticket can be rated once it is resolved or closed.`,
  'Tickets can be assigned only to a support or admin account': msg`Tickets can be assigned only to a support or admin account`,
  'A ticket cannot be merged into itself': msg`A ticket cannot be merged into itself`,
  'Only tickets of the same requester can be merged': msg`Only tickets of the same requester can be merged`,
  'Attachment not found': msg`Attachment not found`,
  // src/server/modules/two-factor
  'Two-factor sign-in is on for this account: enter a code from your authenticator app or a recovery code.': msg`Two-factor sign-in is on for this account: enter a code from your authenticator app or a recovery code.`,
  'This sign-in has expired. Enter your password again.': msg`This sign-in has expired. Enter your password again.`,
  'Passkey not found': msg`Passkey not found`,
  'The passkey could not be added: the request expired or was not valid. Try again.': msg`The passkey could not be added: the request expired or was not valid. Try again.`,
  'The passkey could not be added. Try again.': msg`The passkey could not be added. Try again.`,
  'This passkey is already registered.': msg`This passkey is already registered.`,
  'This account has no passkey. Use a code instead.': msg`This account has no passkey. Use a code instead.`,
  'The authenticator app is already on. Turn two-factor off first to set up another.': msg`The authenticator app is already on. Turn two-factor off first to set up another.`,
  'The authenticator app is already on.': msg`The authenticator app is already on.`,
  'The authenticator app was set up meanwhile. Reload the page.': msg`The authenticator app was set up meanwhile. Reload the page.`,
  'Turn on the authenticator app first: recovery codes come with it.': msg`Turn on the authenticator app first: recovery codes come with it.`,
  'Two-factor is not on.': msg`Two-factor is not on.`,
  // src/server/modules/users
  'That username is taken': msg`That username is taken`,
  // src/server/modules/webhooks
  'Delivery not found': msg`Delivery not found`,
};

/** The server's fixed message in the page's language, or null when the table does not know it. */
export function translateServerMessage(message: string): string | null {
  if (!i18n.locale || !Object.hasOwn(SERVER_MESSAGES, message)) return null;
  return i18n._(SERVER_MESSAGES[message]!);
}

registerServerMessageTranslation(translateServerMessage);

/** The English messages this module knows (for its test). */
export const KNOWN_SERVER_MESSAGES: readonly string[] = Object.keys(SERVER_MESSAGES);
