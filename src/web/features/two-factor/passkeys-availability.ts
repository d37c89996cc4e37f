import { t } from '@lingui/core/macro';
import { passkeyBareHost } from '#shared/schemas/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { passkeyBareHostText } from '#web/lib/error-messages';

/** Why this page cannot use passkeys (a bare IP address, or a browser without WebAuthn), or null. */
export function passkeysUnavailableHere(): string | null {
  const bare = passkeyBareHost(window.location.hostname);
  if (bare !== null) return passkeyBareHostText(bare);
  if (typeof window.PublicKeyCredential === 'undefined') return t`This browser does not support passkeys.`;
  return null;
}

/** The browser's refusal (cancelled, timed out) or the server's message. */
export function passkeyErrorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return errorMessage(err, fallback);
  if (err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError'))
    return t`The passkey prompt was cancelled or timed out.`;
  if (err instanceof Error && err.name === 'InvalidStateError') return t`This device already holds a passkey for your account.`;
  return fallback;
}

// src/shared/schemas/two-factor.ts `passkeyUnavailableReason`, as the server words it in the passkey list's `reason`.
const BARE_HOST_REASON = /^Passkeys need a domain name: browsers refuse them on a bare IP address \((.+)\)\./;

/** The server's reason why passkeys cannot work (the passkey list's `reason`) in the page's language; any other as it is. */
export function passkeyReasonText(reason: string): string {
  const bare = BARE_HOST_REASON.exec(reason)?.[1];
  return bare === undefined ? reason : passkeyBareHostText(bare);
}
