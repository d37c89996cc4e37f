import { t } from '@lingui/core/macro';
import { useEffect, useRef, type ReactNode } from 'react';
import { ErrorCode } from '#shared/error-codes';
import { ApiError, errorMessage } from '#web/lib/api-client';
// The server's fixed messages (an unsubscribe link's) in the page's language: a link's page has no form that loads them.
import '#web/lib/server-messages';

/** Why a one-time link did not work, from the server's code, in words that say what to do next. */
export function linkProblem(error: unknown): { title: string; message: string } {
  const api = error instanceof ApiError ? error : null;
  const message = api?.fromServer ? errorMessage(api, api.message) : t`Something went wrong. Check your connection and try again.`;
  switch (api?.code) {
    case ErrorCode.TOKEN_EXPIRED:
      return { title: t`This link has expired`, message };
    case ErrorCode.TOKEN_USED:
      return { title: t`This link was already used`, message };
    case ErrorCode.TOKEN_SUPERSEDED:
      return { title: t`A newer link was sent`, message };
    case ErrorCode.TOKEN_VOIDED:
      // The password, the address or the account's status changed after the link was sent (decision 0200).
      return { title: t`This link is no longer valid`, message };
    case ErrorCode.TOKEN_INVALID:
    case ErrorCode.VALIDATION_ERROR:
    case ErrorCode.BAD_REQUEST:
      return { title: t`This link is not valid`, message };
    case ErrorCode.RATE_LIMITED:
      return { title: t`Too many attempts`, message };
    default:
      return { title: t`That did not work`, message };
  }
}

/** The card every link page shows: a heading that is focused for screen readers, and what follows. */
export function LinkResultCard({ title, tone, children }: { title: string; tone: 'success' | 'error' | 'info'; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the outcome once when it appears (not on every re-render: a button below keeps its focus).
  useEffect(() => heading.current?.focus(), [title]);
  return (
    <div className={`auth-card card link-result link-result-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      <h1 tabIndex={-1} ref={heading}>
        {title}
      </h1>
      {children}
    </div>
  );
}
