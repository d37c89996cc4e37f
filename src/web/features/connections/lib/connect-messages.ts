import { t } from '@lingui/core/macro';
// The language module activates the catalogue these messages are read from, English first.
import '#web/features/language';
import { ApiError, NETWORK_MESSAGE } from '#web/lib/api-client';
import { detailedErrorText, serverMessageText } from '#web/lib/error-messages';

/**
 * Texts of docs/product.md#validation, #errors for the connection screens and the settings panel, in the
 * language on screen: each is read when it is used (decision 0326).
 */
export const CONNECT_MESSAGES = {
  discord: {
    get connecting() {
      return t`Connecting Discord...`;
    },
    get noCode() {
      return t`No authorization code received from Discord`;
    },
    get invalidResponse() {
      return t`Invalid response from Discord authentication`;
    },
    get connectFailed() {
      return t`Failed to connect Discord account`;
    },
    get disconnectFailed() {
      return t`Failed to disconnect Discord account`;
    },
    get connected() {
      return t`Discord account connected successfully!`;
    },
  },
  telegram: {
    get connecting() {
      return t`Connecting Telegram...`;
    },
    get missingData() {
      return t`Invalid or missing Telegram data`;
    },
    get notVerified() {
      return t`Telegram authentication failed to verify`;
    },
    get connectFailed() {
      return t`Failed to connect Telegram account`;
    },
    get disconnectFailed() {
      return t`Failed to disconnect Telegram account`;
    },
    get connected() {
      return t`Telegram account connected successfully!`;
    },
  },
  get failedTitle() {
    return t`Connection Failed`;
  },
  get redirectingTitle() {
    return t`Redirecting...`;
  },
  noResponse: NETWORK_MESSAGE,
};

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

/**
 * The server's own words for a failed call: its `error`, `details` or `error_description` field
 * (docs/product.md#errors), or null when there was no answer at all.
 */
export function serverMessage(err: unknown): string | null | undefined {
  if (!(err instanceof ApiError)) return undefined;
  if (err.status === 0) return null;
  // The server's own words, its values worded in the page's language (a provider's name), or its fixed
  // words translated (src/web/lib/server-messages.ts, once a page with a form has loaded it).
  if (err.fromServer) return detailedErrorText(err.code, err.details, err.message) ?? serverMessageText(err.message) ?? err.message;
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
  const said = message ?? fallback;
  return prefix === 'Error' ? t`Error: ${said}` : t`Server error: ${said}`;
}
