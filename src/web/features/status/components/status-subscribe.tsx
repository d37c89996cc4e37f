import { msg, t } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { useState } from 'react';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { RichText, useLocale, type UiLocale } from '#web/features/language';
import { useSubscribeToStatus } from '../api/subscribe';
import { useFollowSubscriptionLink, type SubscriptionLinkAction } from '../api/subscription-link';

/** The Atom feed's address: under /api, which the app's history fallback never answers. */
export const STATUS_FEED_PATH = '/api/status/feed.atom';

/** The feed in the reader's language (decision 0331): `?lang=` for es, ru and de; English is the plain address. */
export function statusFeedPath(locale: UiLocale): string {
  return locale === 'en' || locale === 'pseudo' ? STATUS_FEED_PATH : `${STATUS_FEED_PATH}?lang=${locale}`;
}

const problem = (err: unknown, fallback: string) =>
  err instanceof ApiError ? (err.fieldErrors.email ?? errorMessage(err, err.message)) : fallback;

/** Email notices without an account (a confirmation mail first), and the feed for feed readers. */
export function StatusSubscribe() {
  const locale = useLocale();
  const [email, setEmail] = useState('');
  const subscribe = useSubscribeToStatus();
  // The answer and any refusal come from the mutation (decision 0225).
  const form = useForm({ focus: false, action: () => subscribe.mutate(email.trim()) });
  return (
    <section className="section card status-subscribe" aria-labelledby="status-subscribe-title">
      <h2 id="status-subscribe-title">{t`Get notified`}</h2>
      <p className="muted">
        {t`A mail for each new incident, its updates and scheduled maintenance. No account needed; every mail has an unsubscribe link.`}
      </p>
      {subscribe.isSuccess ? (
        <p role="status" className="notice">
          {subscribe.data.message}
        </p>
      ) : (
        <Form form={form} className="status-subscribe-form" aria-label={t`Subscribe to status notices`}>
          <TextField
            id="status-subscribe-email"
            label={t`Email address`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={subscribe.isError ? problem(subscribe.error, t`Could not subscribe right now. Please try again.`) : undefined}
          />
          <StatusButton busy={subscribe.isPending} busyLabel={t`Subscribing…`} className="btn btn-primary btn-small">
            {t`Subscribe`}
          </StatusButton>
        </Form>
      )}
      <p>
        <RichText
          message={t`Or follow the <0>Atom feed of incidents and maintenance</0> in a feed reader.`}
          elements={[<a key="feed" href={statusFeedPath(locale)} />]}
        />
      </p>
    </section>
  );
}

const LINK_TEXT: Record<SubscriptionLinkAction, { title: MessageDescriptor; button: MessageDescriptor }> = {
  confirm: { title: msg`Confirm your subscription`, button: msg`Confirm my subscription` },
  unsubscribe: { title: msg`Unsubscribe from status notices`, button: msg`Unsubscribe` },
};

/**
 * The page a link in a status mail opens (/status/confirm, /status/unsubscribe). It asks for a click
 * rather than acting on load: mail scanners that open links must not confirm or end a subscription.
 */
export function SubscriptionLink({ action, token }: { action: SubscriptionLinkAction; token: string }) {
  useLocale();
  const follow = useFollowSubscriptionLink();
  const text = LINK_TEXT[action];
  return (
    <section className="section card status-subscribe" aria-labelledby="subscription-link-title">
      <h2 id="subscription-link-title">{i18n._(text.title)}</h2>
      {follow.isSuccess ? (
        <p role="status" className="notice">
          {follow.data.message}
        </p>
      ) : (
        <>
          {follow.isError && (
            <p role="alert" className="field-error">
              {problem(follow.error, t`Could not do that right now. Please try again.`)}
            </p>
          )}
          <button
            type="button"
            className="btn btn-primary btn-small"
            disabled={follow.isPending || !token}
            onClick={() => follow.mutate({ action, token })}
          >
            {i18n._(text.button)}
          </button>
        </>
      )}
    </section>
  );
}
