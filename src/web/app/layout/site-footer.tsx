import { i18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { TAGLINE } from '#web/features/marketing/content/site';
import { useLocale } from '#web/features/language';
import { ContactSection } from './contact-section';
import { LogoMark } from './logo';
import { MAIN_NAV } from './nav-items';

const LEGAL_NAV = [
  { to: paths.privacy, label: msg`Privacy` },
  { to: paths.terms, label: msg`Terms` },
] as const;

export function SiteFooter() {
  useLocale();
  const year = new Date().getFullYear();
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <Link to={paths.home} className="brand">
            <LogoMark />
            <span>Olympus</span>
          </Link>
          <p className="muted">{i18n._(TAGLINE)}</p>
        </div>

        <nav aria-label={t`Footer`} className="footer-nav">
          <div>
            <h2 className="footer-heading">Olympus</h2>
            <ul>
              {MAIN_NAV.filter((item) => item.to !== paths.home).map((item) => (
                <li key={item.to}>
                  <Link to={item.to}>{i18n._(item.label)}</Link>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className="footer-heading">{t`Legal`}</h2>
            <ul>
              {LEGAL_NAV.map((item) => (
                <li key={item.to}>
                  <Link to={item.to}>{i18n._(item.label)}</Link>
                </li>
              ))}
            </ul>
          </div>
        </nav>

        <ContactSection />
      </div>
      <div className="container footer-bottom">
        <p className="muted">{t`© ${year} Olympus. Credits are not a bank deposit or an investment.`}</p>
      </div>
    </footer>
  );
}
