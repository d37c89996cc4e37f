import { t } from '@lingui/core/macro';
import { passkeyUnavailableReason } from '#shared/schemas/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';

/** Why this page cannot use passkeys (a bare IP address, or a browser without WebAuthn), or null. */
export function passkeysUnavailableHere(): string | null {
  const reason = passkeyUnavailableReason(window.location.hostname);
  if (reason) return reason;
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
