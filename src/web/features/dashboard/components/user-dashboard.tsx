import { Link } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import type { User } from '#shared/schemas/auth';
import { EmailVerificationBanner } from './email-verification-banner';
import { OnboardingFlow } from './onboarding-flow';
import { SignOutButton } from './sign-out-button';
import { CreditBalanceCard } from './credit-balance-card';
import { OutstandingNotice } from '#web/features/payments';

const SHORTCUTS = [
  { to: dashboardPaths.wallet, title: 'Wallet', text: 'Top up in crypto, follow your payments and every credit in and out.' },
  { to: dashboardPaths.exchanges, title: 'Exchange', text: 'Swap one coin for another, earn reward credits and claim them.' },
  { to: dashboardPaths.shop, title: 'Shop and orders', text: 'Spend credits on the catalogue and find your orders.' },
  { to: dashboardPaths.advertise, title: 'Advertise', text: 'Run an ad paid for with credits and read its report.' },
  { to: dashboardPaths.support, title: 'Support', text: 'Ask a question or follow your tickets.' },
  { to: dashboardPaths.settings, title: 'Settings', text: 'Security, notifications, connections and your data.' },
] as const;

/** /dashboard: the overview, the balance first and a way into each page of the dashboard. */
export function UserDashboard({ user }: { user: User }) {
  // Onboarding is for customers: staff accounts go straight to the dashboard (docs/decisions/0236).
  const needsOnboarding = !user.onboardingCompleted && user.role === 'user';

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
          <SignOutButton />
        </div>
      </header>
      <EmailVerificationBanner user={user} />
      <OutstandingNotice />
      <div className="stack">
        <CreditBalanceCard user={user}>
          <div className="actions">
            <Link className="btn btn-primary" to={dashboardPaths.wallet}>
              Top up
            </Link>
          </div>
        </CreditBalanceCard>
        <nav aria-label="Dashboard shortcuts">
          <ul className="dashboard-shortcuts">
            {SHORTCUTS.map((s) => (
              <li key={s.to}>
                <Link className="card dashboard-shortcut" to={s.to}>
                  <span className="dashboard-shortcut-title">{s.title}</span>
                  <span className="muted">{s.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </section>
  );
}
