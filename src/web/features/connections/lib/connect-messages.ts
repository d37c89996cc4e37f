import { ApiError, NETWORK_MESSAGE } from '#web/lib/api-client';

/** Texts of docs/product.md#validation, #errors for the connection screens and the settings panel. */
export const CONNECT_MESSAGES = {
  discord: {
    connecting: 'Connecting Discord...',
    noCode: 'No authorization code received from Discord',
    invalidResponse: 'Invalid response from Discord authentication',
    connectFailed: 'Failed to connect Discord account',
    disconnectFailed: 'Failed to disconnect Discord account',
    connected: 'Discord account connected successfully!',
  },
  telegram: {
    connecting: 'Connecting Telegram...',
    missingData: 'Invalid or missing Telegram data',
    notVerified: 'Telegram authentication failed to verify',
    connectFailed: 'Failed to connect Telegram account',
    disconnectFailed: 'Failed to disconnect Telegram account',
    connected: 'Telegram account connected successfully!',
  },
  failedTitle: 'Connection Failed',
  redirectingTitle: 'Redirecting...',
  noResponse: NETWORK_MESSAGE,
} as const;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

/**
 * The server's own words for a failed call: its `error`, `details` or `error_description` field
 * (docs/product.md#errors), or null when there was no answer at all.
 */
export function serverMessage(err: unknown): string | null | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.status === 0) return null;
  if (err.fromServer) return err.message;
  const details = err.details as { error_description?: unknown } | string | undefined;
  return text(details) ?? text(typeof details === 'object' && details ? details.error_description : undefined) ?? err.message;
}

/**
 * "{prefix}: {server message}", or the no-response message when the server never answered.
 * `fallback` stands in for a failure that did not come from the API at all.
 */
export function connectErrorMessage(err: unknown, prefix: 'Error' | 'Server error', fallback: string): string {
  const message = serverMessage(err);
  if (message === null) return CONNECT_MESSAGES.noResponse;
  return `${prefix}: ${message ?? fallback}`;
}
