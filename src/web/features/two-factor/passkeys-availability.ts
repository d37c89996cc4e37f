import { passkeyUnavailableReason } from '#shared/schemas/two-factor';

/** Why this page cannot use passkeys (a bare IP address, or a browser without WebAuthn), or null. */
export function passkeysUnavailableHere(): string | null {
  const reason = passkeyUnavailableReason(window.location.hostname);
  if (reason) return reason;
  if (typeof window.PublicKeyCredential === 'undefined') return 'This browser does not support passkeys.';
  return null;
}
