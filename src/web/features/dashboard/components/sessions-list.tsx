import { t } from '@lingui/core/macro';
import { useState } from 'react';
import { RichText, useLocale } from '#web/features/language';
import type { SessionInfo } from '#shared/schemas/auth';
import { QueryState } from '#web/components/ui/query-state';
import { formatLocaleDateTime } from '#web/lib/format';
import { ApiError, errorMessage } from '#web/lib/api-client';
// The server's fixed error messages in the page's language (this list has no form that loads them).
import '#web/lib/server-messages';
import { useEndSession } from '../api/end-session';
import { useSessions } from '../api/get-sessions';
import { describeUserAgent } from './describe-user-agent';
import { useSignOut } from './sign-out-button';

/** Where the account is signed in; any session but this one can be ended here (docs/product.md#accounts). */
/** The list is asked again after a change that ends sessions (ending one here, a password change). */
export function SessionsList() {
  useLocale();
  const sessionsQuery = useSessions();
  const endSession = useEndSession();
  const sessions = sessionsQuery.data;
  // Try again shows the loading line, not the old error.
  const error =
    !sessions && sessionsQuery.isError && !sessionsQuery.isFetching
      ? errorMessage(sessionsQuery.error, t`Could not load your sessions.`)
      : null;
  const loading = !sessions && !error;
  const [ending, setEnding] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const { signOut, pending: signingOut } = useSignOut();

  const end = async (session: SessionInfo) => {
    setEnding(session._id);
    setNotice(null);
    try {
      await endSession.mutateAsync(session._id);
      const device = describeUserAgent(session.userAgent);
      setNotice(t`Ended the session on ${device}.`);
    } catch (err) {
      setNotice(
        err instanceof ApiError && err.fromServer ? errorMessage(err, err.message) : t`Could not end that session. Please try again.`,
      );
    } finally {
      setEnding(null);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="sessions-title" aria-busy={loading || undefined}>
      <h2 id="sessions-title">{t`Active sessions`}</h2>
      <p className="muted">{t`Devices where your account is signed in. End any session you do not recognise.`}</p>
      <p role="status" aria-live="polite" className="settings-notice">
        {notice}
      </p>

      <QueryState
        data={sessions}
        loading={<span className="muted">{t`Loading sessions…`}</span>}
        error={error}
        onRetry={() => void sessionsQuery.refetch()}
      >
        {(sessions) =>
          sessions.length === 0 ? (
            <p className="muted">{t`No active sessions.`}</p>
          ) : (
            <ul className="session-list" aria-label={t`Active sessions`}>
              {sessions.map((session) => {
                const device = describeUserAgent(session.userAgent);
                return (
                  <li key={session._id} className="session-item" data-current={session.current}>
                    <div>
                      <p className="session-device">
                        <strong>{device}</strong>
                        {session.current && <span className="tag session-current">{t`This device`}</span>}
                      </p>
                      <p className="muted session-meta">
                        {session.ip ? `${session.ip} · ` : ''}
                        {t`Signed in ${formatLocaleDateTime(session.createdAt)} · Last active ${formatLocaleDateTime(session.lastSeenAt)}`}
                      </p>
                    </div>
                    {session.current ? (
                      <button type="button" className="btn btn-ghost btn-small" onClick={signOut} disabled={signingOut}>
                        <RichText
                          message={t`End session<0> on this device (signs you out)</0>`}
                          elements={[<span className="visually-hidden" />]}
                        />
                      </button>
                    ) : (
                      <button
                        type="button"
                        className="btn btn-secondary btn-small"
                        onClick={() => void end(session)}
                        disabled={ending === session._id}
                        aria-busy={ending === session._id || undefined}
                      >
                        <RichText
                          message={t`End session<0> on ${device}, last active ${formatLocaleDateTime(session.lastSeenAt)}</0>`}
                          elements={[<span className="visually-hidden" />]}
                        />
                      </button>
                    )}
                  </li>
                );
              })}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
