import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { AD_MAX_FREQUENCY_CAP, AD_MIN_BUDGET_CENTS, AD_MIN_DAILY_BUDGET_CENTS, AD_MIN_PRICE_CENTS } from '#shared/ad-rules';
import { paths } from '#shared/routes';
import { PageHeader } from '#web/components/ui/page-header';
import { usePageMeta } from '#web/components/use-page-meta';
import { RichText, useLocale } from '#web/features/language';
import { formatLocaleCredits } from '#web/lib/format';

const credits = formatLocaleCredits;

/** /advertise: what advertising on Olympus costs and how paying with credits works. */
export default function AdvertisePage() {
  useLocale();
  usePageMeta(
    t`Advertise with us`,
    t`Run ads on Olympus and pay with your credit balance: budgets, daily pacing, frequency caps and reports.`,
  );
  const cpm = credits(AD_MIN_PRICE_CENTS.cpm);
  const cpc = credits(AD_MIN_PRICE_CENTS.cpc);
  const budget = credits(AD_MIN_BUDGET_CENTS);
  const daily = credits(AD_MIN_DAILY_BUDGET_CENTS);
  const cap = AD_MAX_FREQUENCY_CAP;
  return (
    <div className="page">
      <PageHeader eyebrow={t`Advertising`} title={t`Advertise with us`}>
        <p>{t`Put your message in front of people who pay and swap crypto. Pay with your Olympus credits: no invoices, no card.`}</p>
      </PageHeader>
      <section aria-labelledby="prices-title" className="stack">
        <h2 id="prices-title">{t`Prices`}</h2>
        <div className="grid grid-2">
          <article className="card">
            <h3>{t`Per viewable impression (CPM)`}</h3>
            <p>
              <RichText
                message={t`From <0>${cpm} credits</0> per 1,000 impressions. An impression counts when at least half of the ad is on screen for one second, once per viewer per 30 minutes.`}
                elements={[<strong />]}
              />
            </p>
          </article>
          <article className="card">
            <h3>{t`Per click (CPC)`}</h3>
            <p>
              <RichText
                message={t`From <0>${cpc} credits</0> per click, charged once per viewer per 30 minutes.`}
                elements={[<strong />]}
              />
            </p>
          </article>
        </div>
        <ul>
          <li>
            {t`Budgets from ${budget} credits, reserved when you create the campaign. Whatever it does not spend comes back to your balance when it ends.`}
          </li>
          <li>{t`Optional daily budget from ${daily} credits, spread across the day.`}</li>
          <li>{t`Optional cap of 1 to ${cap} times one viewer is shown your ad a day.`}</li>
          <li>{t`Robots, repeated and unserved impressions are counted apart and never charged.`}</li>
          <li>{t`Every ad is reviewed by our team before it is shown.`}</li>
          <li>{t`Reports per day and creative: served, viewable, clicks, click-through and spend, with a CSV export.`}</li>
        </ul>
        <p>
          <Link className="btn btn-primary" to={`${paths.dashboard}/advertise`}>
            {t`Start a campaign`}
          </Link>
        </p>
      </section>
    </div>
  );
}
