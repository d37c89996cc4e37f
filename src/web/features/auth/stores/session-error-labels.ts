import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { AUTH_REJECTIONS, SESSION_ERRORS } from './session-store';

/**
 * The session's own errors are kept in `error` as their English constants, which the store and its
 * callers compare (SESSION_ERRORS, AUTH_REJECTIONS); this says them in the page's language where they
 * are shown (decision 0326).
 */
const LABELS: Record<string, MessageDescriptor> = {
  [SESSION_ERRORS.login]: msg`Login failed`,
  [SESSION_ERRORS.register]: msg`Registration failed`,
  [SESSION_ERRORS.guest]: msg`Could not start a guest session`,
  [SESSION_ERRORS.fetchUser]: msg`Failed to fetch user`,
  [SESSION_ERRORS.fetchCredits]: msg`Failed to fetch credits`,
  [SESSION_ERRORS.onboarding]: msg`Failed to update onboarding`,
  [SESSION_ERRORS.invalidToken]: msg`Invalid or expired token received`,
  [AUTH_REJECTIONS.noToken]: msg`No token found`,
  [AUTH_REJECTIONS.refreshFailed]: msg`Token refresh failed`,
  [AUTH_REJECTIONS.userFetchFailed]: msg`User fetch failed`,
  [AUTH_REJECTIONS.failed]: msg`Authentication failed`,
};

/** A session error as a person reads it: one of the session's own in the page's language, anything else (already a message) as it is. */
export function sessionErrorText(error: string): string {
  const label = Object.hasOwn(LABELS, error) ? LABELS[error] : undefined;
  return label ? i18n._(label) : error;
}
