import { Link } from 'react-router';
import { AD_MAX_FREQUENCY_CAP, AD_MIN_BUDGET_CENTS, AD_MIN_DAILY_BUDGET_CENTS, AD_MIN_PRICE_CENTS } from '#shared/ad-rules';
import { paths } from '#shared/routes';
import { PageHeader } from '#web/components/ui/page-header';
import { usePageMeta } from '#web/components/use-page-meta';
import { formatCredits } from '#web/lib/format';

const credits = formatCredits;

/** /advertise: what advertising on Olympus costs and how paying with credits works. */
export default function AdvertisePage() {
  usePageMeta(
    'Advertise with us',
    'Run ads on Olympus and pay with your credit balance: budgets, daily pacing, frequency caps and reports.',
  );
  return (
    <div className="page">
      <PageHeader eyebrow="Advertising" title="Advertise with us">
        <p>Put your message in front of people who pay and swap crypto. Pay with your Olympus credits: no invoices, no card.</p>
      </PageHeader>
      <section aria-labelledby="prices-title" className="stack">
        <h2 id="prices-title">Prices</h2>
        <div className="grid grid-2">
          <article className="card">
            <h3>Per viewable impression (CPM)</h3>
            <p>
              From <strong>{credits(AD_MIN_PRICE_CENTS.cpm)} credits</strong> per 1,000 impressions. An impression counts when at least half
              of the ad is on screen for one second, once per viewer per 30 minutes.
            </p>
          </article>
          <article className="card">
            <h3>Per click (CPC)</h3>
            <p>
              From <strong>{credits(AD_MIN_PRICE_CENTS.cpc)} credits</strong> per click, charged once per viewer per 30 minutes.
            </p>
          </article>
        </div>
        <ul>
          <li>
            Budgets from {credits(AD_MIN_BUDGET_CENTS)} credits, reserved when you create the campaign. Whatever it does not spend comes
            back to your balance when it ends.
          </li>
          <li>Optional daily budget from {credits(AD_MIN_DAILY_BUDGET_CENTS)} credits, spread across the day.</li>
          <li>Optional cap of 1 to {AD_MAX_FREQUENCY_CAP} times one viewer is shown your ad a day.</li>
          <li>Robots, repeated and unserved impressions are counted apart and never charged.</li>
          <li>Every ad is reviewed by our team before it is shown.</li>
          <li>Reports per day and creative: served, viewable, clicks, click-through and spend, with a CSV export.</li>
        </ul>
        <p>
          <Link className="btn btn-primary" to={`${paths.dashboard}/advertise`}>
            Start a campaign
          </Link>
        </p>
      </section>
    </div>
  );
}
