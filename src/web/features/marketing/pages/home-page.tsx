import { lazy, Suspense, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '#shared/routes';
import { useAfterFirstRender } from '#web/components/use-after-first-render';
import { usePageMeta } from '#web/components/use-page-meta';
import { startGuestSession, useSessionStore } from '#web/features/auth';
import { LazyExchangePanel } from '#web/features/exchange';
import { feeTierRows } from '../content/fee-tiers';
import { HOME_FEATURES, HOME_HERO, HOME_STEPS } from '../content/home';
import '../marketing.css';

// The ad loads once the page's own content is on screen, so it never weighs on the home page's first
// paint. It reads its ad without the query library, which the home page does not load (docs/decisions/0093).
const AdSlot = lazy(() => import('#web/features/ads').then((m) => ({ default: m.AdSlot })));

/** Start a guest session and go to the dashboard (where guests follow swaps and tickets). */
function ContinueAsGuestButton({ label }: { label: string }) {
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
      setError(useSessionStore.getState().error ?? 'Could not start a guest session');
      setStarting(false);
    }
  };

  return (
    <>
      <button type="button" className="btn btn-ghost" onClick={() => void start()} disabled={starting}>
        {starting ? 'Starting guest session…' : label}
      </button>
      {error && (
        <p className="form-error" role="alert">
          {error}. Please try again.
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
          Go to your guest dashboard
        </Link>
      ) : (
        <ContinueAsGuestButton label={guestLabel} />
      )}
    </>
  );
}

export default function HomePage() {
  const adReady = useAfterFirstRender();
  usePageMeta(
    'Crypto credits, swaps and rewards',
    'Top up credits in crypto through NOWPayments, swap coins instantly and earn reward credits, with support tickets that get answered.',
  );

  return (
    <div className="page home-page">
      <section className="hero" aria-labelledby="hero-title">
        <p className="eyebrow">{HOME_HERO.eyebrow}</p>
        <h1 id="hero-title">
          {HOME_HERO.title} <span className="gradient-text">{HOME_HERO.highlight}</span>
        </h1>
        <p className="lead">{HOME_HERO.lead}</p>
        <div className="actions">
          <AccountActions registerLabel="Create a free account" guestLabel="Continue as guest" dashboardLabel="Go to your dashboard" />
          <a className="btn btn-secondary" href="#exchange">
            See how swaps work
          </a>
        </div>
      </section>

      <section className="section" aria-labelledby="features-title">
        <div className="section-header">
          <h2 id="features-title">Everything in one balance</h2>
          <p className="muted">One account for topping up, swapping, earning rewards and getting help.</p>
        </div>
        <ul className="card-grid card-grid-4">
          {HOME_FEATURES.map((feature) => (
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
          <h2 id="steps-title">How it works</h2>
        </div>
        <ol className="steps">
          {HOME_STEPS.map((step) => (
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
          <h2 id="fees-title">Simple, visible fees</h2>
          <p className="muted">
            Top-ups carry one processing fee, set by the amount you pay. One credit is one US dollar, and the page shows the fee and your
            credits before you send anything.
          </p>
        </div>
        <table className="fee-table">
          <caption>Processing fee by top-up amount (USD)</caption>
          <thead>
            <tr>
              <th scope="col">Top-up amount</th>
              <th scope="col">Fee</th>
            </tr>
          </thead>
          <tbody>
            {feeTierRows().map((row) => (
              <tr key={row.range}>
                <td>{row.range}</td>
                <td>{row.percent}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
