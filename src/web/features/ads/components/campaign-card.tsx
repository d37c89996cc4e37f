import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { Link } from 'react-router';
import toast from 'react-hot-toast';
import type { Campaign } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useChangeCampaign, type CampaignAction } from '../api/change-campaign';
import { useChangeHouseCampaign } from '../api/house-campaigns';
import { useLocale } from '#web/features/language';
import { formatLocaleCredits, formatLocaleCrypto, formatLocaleDateTime, formatSpend } from '#web/lib/format';

export const STATE_LABELS: Record<Campaign['state'], MessageDescriptor> = {
  'in-review': msg`In review`,
  scheduled: msg`Scheduled`,
  running: msg`Running`,
  paused: msg`Paused`,
  ended: msg`Ended`,
};

const END_REASONS: Record<string, MessageDescriptor> = {
  stopped: msg`stopped`,
  finished: msg`its end date passed`,
  'budget-spent': msg`its budget was spent`,
  rejected: msg`its creative was rejected`,
  'account-closed': msg`the account was closed`,
};

const REVIEW_STATUSES: Record<string, MessageDescriptor> = {
  pending: msg`waiting for review`,
  approved: msg`approved`,
  rejected: msg`rejected`,
};

/** Spend in credits, three decimals (`formatSpend`), written with the language's decimal sign. */
export const localeSpend = (millicents: number) => formatLocaleCrypto(formatSpend(millicents));

/**
 * One campaign: state, budget, creatives with their review, and the owner's controls. In the staff
 * console (`controls` false) a house campaign is marked, and admins (`houseControls`) get the same
 * controls for it (docs/decisions/0283).
 */
export function CampaignCard({
  campaign,
  onReport,
  reportTo,
  controls = true,
  houseControls: mayChangeHouse = false,
}: {
  campaign: Campaign;
  /** Shows the report in place (the staff list), */
  onReport?: () => void;
  /** or opens the report's own address (my campaigns). */
  reportTo?: string;
  controls?: boolean;
  houseControls?: boolean;
}) {
  useLocale();
  const changeOwn = useChangeCampaign();
  const changeHouse = useChangeHouseCampaign();
  const c = campaign;
  const houseControls = !controls && c.house && mayChangeHouse;
  const change = houseControls ? changeHouse : changeOwn;
  const showControls = controls || houseControls;

  async function act(action: CampaignAction) {
    const name = c.name;
    const confirmText = c.house
      ? t`Stop the house campaign “${name}” for good?`
      : t`Stop “${name}” for good? What it has not spent comes back to your balance.`;
    if (action === 'stop' && !window.confirm(confirmText)) return;
    try {
      const { campaign: after } = await change.mutateAsync({ id: c._id, action });
      const refunded = formatLocaleCredits(after.refundedCents ?? 0);
      toast.success(
        action === 'stop'
          ? c.house
            ? t`Stopped.`
            : t`Stopped. ${refunded} credits came back to your balance.`
          : action === 'pause'
            ? t`Paused`
            : t`Resumed`,
      );
    } catch (err) {
      toast.error(errorMessage(err, t`Failed to change the campaign`));
    }
  }

  const price = formatLocaleCredits(c.priceCents);
  const owner = c.ownerName;
  const budget = c.budgetCents === null ? null : formatLocaleCredits(c.budgetCents);
  const daily = c.dailyBudgetCents === null ? null : formatLocaleCredits(c.dailyBudgetCents);
  const cap = c.frequencyCap;
  const reason = END_REASONS[c.endReason ?? ''];
  const endReason = reason ? i18n._(reason) : (c.endReason ?? '');
  const refunded = formatLocaleCredits(c.refundedCents ?? 0);
  const name = c.name;

  return (
    <article className="card stack" aria-labelledby={`campaign-${c._id}`}>
      <div className="cluster">
        <h3 id={`campaign-${c._id}`}>{c.name}</h3>
        {c.house && (
          <span className="campaign-state campaign-house" data-testid="campaign-house">
            {t`House`}
          </span>
        )}
        <span className="campaign-state" data-testid="campaign-state">
          {i18n._(STATE_LABELS[c.state])}
        </span>
      </div>
      <p className="muted">
        {c.priceModel === 'cpm' ? t`${price} credits per 1,000 viewable impressions` : t`${price} credits per click`} ·{' '}
        {formatLocaleDateTime(c.startsAt)} – {formatLocaleDateTime(c.endsAt)}
        {owner && !controls ? (c.house ? ` · ${t`house campaign, created by ${owner}`}` : ` · ${t`by ${owner}`}`) : ''}
      </p>
      <p>
        {c.house ? t`Counted` : t`Spent`} <strong data-testid="campaign-spent">{localeSpend(c.spentMillicents)}</strong>
        {budget === null
          ? ` ${t`(no budget limit, nothing paid)`}`
          : ` ${c.house ? t`of ${budget} credits (counted, not paid)` : t`of ${budget} credits`}`}
        {daily !== null && ` · ${t`${daily} a day`}`}
        {cap !== null && ` · ${t`at most ${cap} a day per viewer`}`}
      </p>
      {c.state === 'ended' && (
        <p>
          {t`Ended: ${endReason}.`}
          {c.house ? '' : ` ${t`${refunded} credits came back.`}`}
        </p>
      )}
      <ul className="campaign-list stack">
        {c.creatives.map((a) => (
          <li key={a._id} className="campaign-creative-preview">
            <strong>{a.title}</strong>{' '}
            <span className="muted">— {REVIEW_STATUSES[a.reviewStatus] ? i18n._(REVIEW_STATUSES[a.reviewStatus]!) : a.reviewStatus}</span>
            {a.reviewReason && <p className="field-error">{t`Rejected: ${a.reviewReason}`}</p>}
          </li>
        ))}
      </ul>
      <div className="cluster">
        {reportTo ? (
          <Link className="btn btn-secondary btn-small" to={reportTo} aria-label={t`Report of ${name}`}>
            {t`Report`}
          </Link>
        ) : (
          <button type="button" className="btn btn-secondary btn-small" onClick={onReport}>
            {t`Report`}
          </button>
        )}
        {showControls && c.status === 'active' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('pause')}>
            {t`Pause`}
          </button>
        )}
        {showControls && c.status === 'paused' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('resume')}>
            {t`Resume`}
          </button>
        )}
        {showControls && c.status !== 'ended' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('stop')}>
            {c.house ? t`Stop` : t`Stop and refund`}
          </button>
        )}
      </div>
    </article>
  );
}
