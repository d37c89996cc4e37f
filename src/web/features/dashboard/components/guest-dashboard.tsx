import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { useLocale } from '#web/features/language';
import { paths } from '#shared/routes';
import { LazyExchangePanel } from '#web/features/exchange';
import { GuestCatalogue } from '#web/features/catalogue';

/** Guests have no balance or settings; the page says what they can do and invites them to sign up. */
export function GuestDashboard({ title }: { title?: string }) {
  useLocale();
  return (
    <section className="page dashboard-page" aria-labelledby="guest-dashboard-title">
      <p className="eyebrow">{t`Guest session`}</p>
      <h1 id="guest-dashboard-title">{title ?? t`Guest dashboard`}</h1>
      <p className="lead">{t`You are browsing as a guest. Guests can swap crypto and open support tickets.`}</p>
      <div className="stack">
        <div className="grid grid-2 grid-stretch">
          <div className="card guest-cta">
            <h2>{t`Need help?`}</h2>
            <p>{t`Open a support ticket; our answers appear here, and your tickets follow you when you create an account.`}</p>
            <div className="actions">
              <Link className="btn btn-secondary" to={`${paths.dashboard}/support`}>
                {t`Support tickets`}
              </Link>
            </div>
          </div>
          <div className="card guest-cta">
            <h2>{t`Keep your rewards`}</h2>
            <p>{t`Create a free account to hold a credit balance, top up in crypto and claim the rewards your exchanges earned as a guest.`}</p>
            <div className="actions">
              <Link className="btn btn-primary" to={paths.register}>
                {t`Create an account`}
              </Link>
              <Link className="btn btn-ghost" to={paths.login}>
                {t`Log in`}
              </Link>
            </div>
          </div>
        </div>
        <GuestCatalogue />
        <LazyExchangePanel />
      </div>
    </section>
  );
}
