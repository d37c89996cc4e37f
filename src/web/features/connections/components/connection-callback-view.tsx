import { plural, t } from '@lingui/core/macro';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { CONNECT_ERROR_REDIRECT_MS } from '#shared/constants';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { CONNECT_MESSAGES } from '../lib/connect-messages';
import type { CallbackPhase } from './use-connection-callback';
import { RichText, useLocale } from '#web/features/language';
import '../connections.css';

/** The screen of /discord-callback and /telegram-callback: working, failed (with the message) or redirecting. */
export function ConnectionCallbackView({ phase, connectingTitle }: { phase: CallbackPhase; connectingTitle: string }) {
  useLocale();
  const title =
    phase.state === 'failed' ? CONNECT_MESSAGES.failedTitle : phase.state === 'done' ? CONNECT_MESSAGES.redirectingTitle : connectingTitle;
  usePageMeta(title);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Screen readers hear the outcome: focus moves to the heading when it changes.
  useEffect(() => {
    if (phase.state !== 'working') headingRef.current?.focus();
  }, [phase.state]);

  return (
    <section className="page connection-callback" aria-labelledby="connection-callback-title" aria-busy={phase.state === 'working'}>
      <div className="card connection-callback-card" data-state={phase.state}>
        {phase.state === 'working' && <span className="connection-spinner" aria-hidden="true" />}
        <h1 id="connection-callback-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        {phase.state === 'failed' && (
          <>
            <p role="alert" className="connection-callback-error">
              {phase.message}
            </p>
            <p className="muted">
              <RichText
                message={plural(CONNECT_ERROR_REDIRECT_MS / 1000, {
                  one: 'Returning to your settings in # second. <0>Go now</0>',
                  other: 'Returning to your settings in # seconds. <0>Go now</0>',
                })}
                elements={[<Link to={`${paths.settings}#connections`} />]}
              />
            </p>
          </>
        )}
        {phase.state === 'working' && <p className="muted">{t`Please keep this page open.`}</p>}
      </div>
    </section>
  );
}
