import { Link } from 'react-router';
import { paths } from '#shared/routes';
import type { User } from '#shared/schemas/auth';
import { useCredits } from '#web/features/auth/credits';
import { formatAmount } from '#web/lib/format';
import { EmailVerificationBanner } from './email-verification-banner';
import { OnboardingFlow } from './onboarding-flow';
import { SignOutButton } from './sign-out-button';
import { ClaimRewardForm, LazyExchangePanel } from '#web/features/exchange';
import { LedgerHistory, OutstandingNotice, PaymentHistory, TopUpPanel } from '#web/features/payments';
import { CatalogueSection } from '#web/features/catalogue';

export function UserDashboard({ user }: { user: User }) {
  // Onboarding is for customers: staff accounts go straight to the dashboard (docs/decisions/0236).
  const needsOnboarding = !user.onboardingCompleted && user.role === 'user';
  // The balance from sign-in may be old (a payment may have completed since): ask for the current one.
  const balance = useCredits(user._id, !needsOnboarding);
  const credits = balance.data ?? user.credits;
  const balanceStale = balance.isError;

  if (needsOnboarding) {
    return (
      <section className="page dashboard-page" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title" className="visually-hidden">
          Getting started
        </h1>
        <OnboardingFlow />
      </section>
    );
  }

  return (
    <section className="page dashboard-page" aria-labelledby="dashboard-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h1 id="dashboard-title">Welcome, {user.username}</h1>
          <p className="muted">
            Signed in as <strong data-testid="dashboard-username">{user.username}</strong>
          </p>
        </div>
        <div className="actions">
          {(user.role === 'support' || user.role === 'admin') && (
            <Link className="btn btn-ghost" to={`${paths.dashboard}/staff`}>
              Staff console
            </Link>
          )}
          <Link className="btn btn-ghost" to={`${paths.dashboard}/support`}>
            Support
          </Link>
          <Link className="btn btn-ghost" to={`${paths.dashboard}/advertise`}>
            Advertise
          </Link>
          <Link className="btn btn-ghost" to={paths.settings}>
            Settings
          </Link>
          <SignOutButton />
        </div>
      </header>
      <EmailVerificationBanner user={user} />

      <OutstandingNotice />
      {/* Arranged by task (docs/decisions/0237): balance and top-up first, then the activity at full width. */}
      <div className="stack">
        <div className="grid grid-2">
          <section className="card credit-card" aria-labelledby="credits-title">
            <h2 id="credits-title">Credit balance</h2>
            <p className="credit-balance" aria-live="polite">
              <span data-testid="credit-balance">{formatAmount(credits)}</span> <span className="muted">credits</span>
            </p>
            <p className="muted">1 credit = 1 USD. Top up by paying in cryptocurrency.</p>
            {balanceStale && (
              <p className="field-error" role="status">
                Failed to fetch credits. The balance shown may be out of date.
              </p>
            )}
          </section>
          <TopUpPanel />
        </div>
        <PaymentHistory />
        <LedgerHistory />
        <ClaimRewardForm userId={user._id} />
        <CatalogueSection userId={user._id} />
        <LazyExchangePanel />
      </div>
    </section>
  );
}
