import toast from 'react-hot-toast';
import type { Campaign } from '#shared/schemas/ads';
import { errorMessage } from '#web/lib/api-client';
import { useChangeCampaign, type CampaignAction } from '../api/change-campaign';
import { formatSpend } from './campaign-report';

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

/** One campaign: state, budget, creatives with their review, and the owner's controls. */
export function CampaignCard({ campaign, onReport, controls = true }: { campaign: Campaign; onReport: () => void; controls?: boolean }) {
  const change = useChangeCampaign();
  const c = campaign;

  async function act(action: CampaignAction) {
    if (action === 'stop' && !window.confirm(`Stop “${c.name}” for good? What it has not spent comes back to your balance.`)) return;
    try {
      const { campaign: after } = await change.mutateAsync({ id: c._id, action });
      toast.success(action === 'stop' ? `Stopped. ${((after.refundedCents ?? 0) / 100).toFixed(2)} credits came back to your balance.` : action === 'pause' ? 'Paused' : 'Resumed');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to change the campaign'));
    }
  }

  return (
    <article className="card stack" aria-labelledby={`campaign-${c._id}`}>
      <div className="cluster">
        <h3 id={`campaign-${c._id}`}>{c.name}</h3>
        <span className="campaign-state" data-testid="campaign-state">
          {STATE_LABELS[c.state]}
        </span>
      </div>
      <p className="muted">
        {c.priceModel === 'cpm' ? `${(c.priceCents / 100).toFixed(2)} credits per 1,000 viewable impressions` : `${(c.priceCents / 100).toFixed(2)} credits per click`} ·{' '}
        {new Date(c.startsAt).toLocaleString()} – {new Date(c.endsAt).toLocaleString()}
        {c.ownerName && !controls ? ` · by ${c.ownerName}` : ''}
      </p>
      <p>
        Spent <strong data-testid="campaign-spent">{formatSpend(c.spentMillicents)}</strong> of {(c.budgetCents / 100).toFixed(2)} credits
        {c.dailyBudgetCents !== null && ` · ${(c.dailyBudgetCents / 100).toFixed(2)} a day`}
        {c.frequencyCap !== null && ` · at most ${c.frequencyCap} a day per viewer`}
      </p>
      {c.state === 'ended' && (
        <p>
          Ended: {END_REASONS[c.endReason ?? ''] ?? c.endReason}. {((c.refundedCents ?? 0) / 100).toFixed(2)} credits came back.
        </p>
      )}
      <ul className="campaign-list stack">
        {c.creatives.map((a) => (
          <li key={a._id} className="campaign-creative-preview">
            <strong>{a.title}</strong> <span className="muted">— {a.reviewStatus === 'pending' ? 'waiting for review' : a.reviewStatus}</span>
            {a.reviewReason && <p className="field-error">Rejected: {a.reviewReason}</p>}
          </li>
        ))}
      </ul>
      <div className="cluster">
        <button type="button" className="btn btn-secondary btn-small" onClick={onReport}>
          Report
        </button>
        {controls && c.status === 'active' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('pause')}>
            Pause
          </button>
        )}
        {controls && c.status === 'paused' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('resume')}>
            Resume
          </button>
        )}
        {controls && c.status !== 'ended' && (
          <button type="button" className="btn btn-ghost btn-small" disabled={change.isPending} onClick={() => void act('stop')}>
            Stop and refund
          </button>
        )}
      </div>
    </article>
  );
}
