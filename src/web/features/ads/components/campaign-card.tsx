import { Link } from 'react-router';
import toast from 'react-hot-toast';
import type { Campaign } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useChangeCampaign, type CampaignAction } from '../api/change-campaign';
import { useChangeHouseCampaign } from '../api/house-campaigns';
import { formatCredits, formatSpend } from '#web/lib/format';

export const STATE_LABELS: Record<Campaign['state'], string> = {
  'in-review': 'In review',
  scheduled: 'Scheduled',
  running: 'Running',
  paused: 'Paused',
  ended: 'Ended',
};

const END_REASONS: Record<string, string> = {
  stopped: 'stopped',
  finished: 'its end date passed',
  'budget-spent': 'its budget was spent',
  rejected: 'its creative was rejected',
  'account-closed': 'the account was closed',
};

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
  const changeOwn = useChangeCampaign();
  const changeHouse = useChangeHouseCampaign();
  const c = campaign;
  const houseControls = !controls && c.house && mayChangeHouse;
  const change = houseControls ? changeHouse : changeOwn;
  const showControls = controls || houseControls;

  async function act(action: CampaignAction) {
    const confirmText = c.house
      ? `Stop the house campaign “${c.name}” for good?`
      : `Stop “${c.name}” for good? What it has not spent comes back to your balance.`;
    if (action === 'stop' && !window.confirm(confirmText)) return;
    try {
      const { campaign: after } = await change.mutateAsync({ id: c._id, action });
      toast.success(
        action === 'stop'
          ? c.house
            ? 'Stopped.'
            : `Stopped. ${formatCredits(after.refundedCents ?? 0)} credits came back to your balance.`
          : action === 'pause'
            ? 'Paused'
            : 'Resumed',
      );
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to change the campaign'));
    }
  }

  return (
    <article className="card stack" aria-labelledby={`campaign-${c._id}`}>
      <div className="cluster">
        <h3 id={`campaign-${c._id}`}>{c.name}</h3>
        {c.house && (
          <span className="campaign-state campaign-house" data-testid="campaign-house">
            House
          </span>
        )}
        <span className="campaign-state" data-testid="campaign-state">
          {STATE_LABELS[c.state]}
        </span>
      </div>
      <p className="muted">
        {c.priceModel === 'cpm'
          ? `${formatCredits(c.priceCents)} credits per 1,000 viewable impressions`
          : `${formatCredits(c.priceCents)} credits per click`}{' '}
        · {new Date(c.startsAt).toLocaleString()} – {new Date(c.endsAt).toLocaleString()}
        {c.ownerName && !controls ? (c.house ? ` · house campaign, created by ${c.ownerName}` : ` · by ${c.ownerName}`) : ''}
      </p>
      <p>
        {c.house ? 'Counted' : 'Spent'} <strong data-testid="campaign-spent">{formatSpend(c.spentMillicents)}</strong>
        {c.budgetCents === null
          ? ' (no budget limit, nothing paid)'
          : ` of ${formatCredits(c.budgetCents)} credits${c.house ? ' (counted, not paid)' : ''}`}
        {c.dailyBudgetCents !== null && ` · ${formatCredits(c.dailyBudgetCents)} a day`}
        {c.frequencyCap !== null && ` · at most ${c.frequencyCap} a day per viewer`}
      </p>
      {c.state === 'ended' && (
        <p>
          Ended: {END_REASONS[c.endReason ?? ''] ?? c.endReason}.
          {c.house ? '' : ` ${formatCredits(c.refundedCents ?? 0)} credits came back.`}
        </p>
      )}
      <ul className="campaign-list stack">
        {c.creatives.map((a) => (
          <li key={a._id} className="campaign-creative-preview">
            <strong>{a.title}</strong>{' '}
            <span className="muted">— {a.reviewStatus === 'pending' ? 'waiting for review' : a.reviewStatus}</span>
            {a.reviewReason && <p className="field-error">Rejected: {a.reviewReason}</p>}
          </li>
        ))}
      </ul>
      <div className="cluster">
        {reportTo ? (
          <Link className="btn btn-secondary btn-small" to={reportTo} aria-label={`Report of ${c.name}`}>
            Report
          </Link>
        ) : (
          <button type="button" className="btn btn-secondary btn-small" onClick={onReport}>
            Report
          </button>
        )}
        {showControls && c.status === 'active' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('pause')}>
            Pause
          </button>
        )}
        {showControls && c.status === 'paused' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('resume')}>
            Resume
          </button>
        )}
        {showControls && c.status !== 'ended' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('stop')}>
            {c.house ? 'Stop' : 'Stop and refund'}
          </button>
        )}
      </div>
    </article>
  );
}
