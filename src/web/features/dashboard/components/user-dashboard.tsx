import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import type { User } from '#shared/schemas/auth';
import { EmailVerificationBanner } from './email-verification-banner';
import { OnboardingFlow } from './onboarding-flow';
import { SignOutButton } from './sign-out-button';
import { CreditBalanceCard } from './credit-balance-card';
import { OutstandingNotice } from '#web/features/payments';
import { useLocale } from '#web/features/language';

const SHORTCUTS = [
  { to: dashboardPaths.wallet, title: msg`Wallet`, text: msg`Top up in crypto, follow your payments and every credit in and out.` },
  { to: dashboardPaths.exchanges, title: msg`Exchange`, text: msg`Swap one coin for another, earn reward credits and claim them.` },
  { to: dashboardPaths.shop, title: msg`Shop and orders`, text: msg`Spend credits on the catalogue and find your orders.` },
  { to: dashboardPaths.advertise, title: msg`Advertise`, text: msg`Run an ad paid for with credits and read its report.` },
  { to: dashboardPaths.support, title: msg`Support`, text: msg`Ask a question or follow your tickets.` },
  { to: dashboardPaths.settings, title: msg`Settings`, text: msg`Security, notifications, connections and your data.` },
] as const;

/** /dashboard: the overview, the balance first and a way into each page of the dashboard. */
export function UserDashboard({ user }: { user: User }) {
  useLocale();
  // Onboarding is for customers: staff accounts go straight to the dashboard (docs/decisions/0236).
  const needsOnboarding = !user.onboardingCompleted && user.role === 'user';

  if (needsOnboarding) {
    return (
      <section className="page dashboard-page" aria-labelledby="dashboard-title">
        <h1 id="dashboard-title" className="visually-hidden">
          {t`Getting started`}
        </h1>
        <OnboardingFlow />
      </section>
    );
  }

  return (
    <section className="page dashboard-page" aria-labelledby="dashboard-title">
      <header className="dashboard-header">
        <div>
          <p className="eyebrow">{t`Dashboard`}</p>
          <h1 id="dashboard-title">{t`Welcome, ${user.username}`}</h1>
          <p className="muted">
            {t`Signed in as`} <strong data-testid="dashboard-username">{user.username}</strong>
          </p>
        </div>
        <div className="actions">
          {(user.role === 'support' || user.role === 'admin') && (
            <Link className="btn btn-ghost" to={`${paths.dashboard}/staff`}>
              {t`Staff console`}
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
              {t`Top up`}
            </Link>
          </div>
        </CreditBalanceCard>
        <nav aria-label={t`Dashboard shortcuts`}>
          <ul className="dashboard-shortcuts">
            {SHORTCUTS.map((s) => (
              <li key={s.to}>
                <Link className="card dashboard-shortcut" to={s.to}>
                  <span className="dashboard-shortcut-title">{i18n._(s.title)}</span>
                  <span className="muted">{i18n._(s.text)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </section>
  );
}
