import { t } from '@lingui/core/macro';
import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { useAfterFirstRender } from '#web/components/use-after-first-render';
import { usePageMeta } from '#web/components/use-page-meta';
import { startGuestSession, useSessionStore } from '#web/features/auth';
import { LazyExchangePanel } from '#web/features/exchange';
import { useLocale } from '#web/features/language';
import { feeTierRows } from '../content/fee-tiers';
import { homeFeatures, homeHero, homeSteps } from '../content/home';
import '../marketing.css';

// The ad loads once the page's own content is on screen, so it never weighs on the home page's first
// paint. It reads its ad without the query library, which the home page does not load (docs/decisions/0093).
const AdSlot = lazy(() => import('#web/features/ads').then((m) => ({ default: m.AdSlot })));

/** Start a guest session and go to the dashboard (where guests follow swaps and tickets). */
function ContinueAsGuestButton({ label }: { label: string }) {
  useLocale();
  const navigate = useNavigate();
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      await startGuestSession();
      void navigate(paths.dashboard);
    } catch {
      setError(useSessionStore.getState().error ?? t`Could not start a guest session`);
      setStarting(false);
    }
  };

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => void start()} disabled={starting}>
        {starting ? t`Starting guest session…` : label}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {t`${error}. Please try again.`}
        </p>
      )}
    </>
  );
}

interface AccountActionsProps {
  registerLabel: string;
  guestLabel: string;
  dashboardLabel: string;
}

/** The calls to action fit the visitor: register or go on as a guest, or back to the dashboard. */
function AccountActions({ registerLabel, guestLabel, dashboardLabel }: AccountActionsProps) {
  useLocale();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);

  if (isAuthenticated && !isGuest) {
    return (
      <Link className="btn btn-primary" to={paths.dashboard}>
        {dashboardLabel}
      </Link>
    );
  }
  return (
    <>
      <Link className="btn btn-primary" to={paths.register}>
        {registerLabel}
      </Link>
      {isGuest ? (
        <Link className="btn btn-ghost" to={paths.dashboard}>
          {t`Go to your guest dashboard`}
        </Link>
      ) : (
        <ContinueAsGuestButton label={guestLabel} />
      )}
    </>
  );
}

export default function HomePage() {
  const adReady = useAfterFirstRender();
  useLocale();
  usePageMeta(
    t`Crypto credits, swaps and rewards`,
    t`Top up credits in crypto through NOWPayments, swap coins instantly and earn reward credits, with support tickets that get answered.`,
  );
  const hero = homeHero();

  return (
    <div className="page home-page">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">{hero.eyebrow}</p>
        <h1 id="hero-title">
          {hero.title} <span className="gradient-text">{hero.highlight}</span>
        </h1>
        <p className="lead">{hero.lead}</p>
        <div className="actions">
          <AccountActions
            registerLabel={t`Create a free account`}
            guestLabel={t`Continue as guest`}
            dashboardLabel={t`Go to your dashboard`}
          />
          <a className="btn btn-secondary" href="#exchange">
            {t`See how swaps work`}
          </a>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="section-header">
          <h2 id="features-title">{t`Everything in one balance`}</h2>
          <p className="muted">{t`One account for topping up, swapping, earning rewards and getting help.`}</p>
        </div>
        <ul className="card-grid card-grid-4">
          {homeFeatures().map((feature) => (
            <li key={feature.id} className="card">
              <span className="card-icon" aria-hidden="true">
                {feature.icon}
              </span>
              <h3>{feature.title}</h3>
              <p className="muted">{feature.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <LazyExchangePanel />

      <section className="section" aria-labelledby="steps-title">
        <div className="section-header">
          <h2 id="steps-title">{t`How it works`}</h2>
        </div>
        <ol className="steps">
          {homeSteps().map((step) => (
            <li key={step.title}>
              <h3>{step.title}</h3>
              <p className="muted">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      {adReady && (
        <Suspense fallback={null}>
          <AdSlot placement="home-banner" />
        </Suspense>
      )}

      <section className="section" aria-labelledby="fees-title">
        <div className="section-header">
          <h2 id="fees-title">{t`Simple, visible fees`}</h2>
          <p className="muted">
            {t`Top-ups carry one processing fee, set by the amount you pay. One credit is one US dollar, and the page shows the fee and your credits before you send anything.`}
          </p>
        </div>
        <table className="fee-table">
          <caption>{t`Processing fee by top-up amount (USD)`}</caption>
          <thead>
            <tr>
              <th scope="col">{t`Top-up amount`}</th>
              <th scope="col">{t`Fee`}</th>
            </tr>
          </thead>
          <tbody>
            {feeTierRows().map((row) => (
              <tr key={row.range}>
                <td>{row.range}</td>
                <td>{t`${row.percent}%`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
