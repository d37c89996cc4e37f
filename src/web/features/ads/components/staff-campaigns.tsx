import { t } from '@lingui/core/macro';
import { useState } from 'react';
import toast from 'react-hot-toast';
import type { ReviewItem } from '#shared/schemas/ads';
import { QueryState } from '#web/components/ui/query-state';
import { TextareaField } from '#web/components/ui/forms';
import { useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleDateTime } from '#web/lib/format';
import { translateValidationMessage } from '#web/lib/validation-messages';
import { useReviewQueue, useStaffCampaigns } from '../api/get-review-queue';
import { useReviewCreative } from '../api/review-creative';
import { CampaignCard } from './campaign-card';
import { CampaignForm } from './campaign-form';
import { CampaignReport } from './campaign-report';
import '../ads.css';

function ReviewCard({ item }: { item: ReviewItem }) {
  useLocale();
  const review = useReviewCreative();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const c = item.creative;

  async function decide(reject: boolean) {
    setError(null);
    try {
      await review.mutateAsync({ id: c._id, reason: reject ? reason : undefined });
      const title = c.title;
      toast.success(reject ? t`Rejected “${title}”` : t`Approved “${title}”`);
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.reason) setError(translateValidationMessage(err.fieldErrors.reason));
      toast.error(errorMessage(err, t`Failed to record the review`));
    }
  }

  const campaignName = item.campaignName;
  const ownerName = item.ownerName;
  const placements = item.placements.join(', ');
  const sent = formatLocaleDateTime(item.submittedAt);

  return (
    <li className="card stack">
      <article aria-labelledby={`review-${c._id}`} className="stack">
        <h3 id={`review-${c._id}`}>{c.title}</h3>
        <p className="muted">
          {t`${campaignName} by ${ownerName}`} · {placements} · {t`sent ${sent}`}
        </p>
        <div className="campaign-creative-preview">
          {c.body && <p>{c.body}</p>}
          {c.imageUrl && (
            <p>
              {t`Image:`} <code>{c.imageUrl}</code> ({c.imageAlt})
            </p>
          )}
          <p>
            {t`Links to`} <code>{c.targetUrl}</code>
          </p>
        </div>
        {rejecting && (
          <TextareaField
            label={t`Reason (the advertiser reads it)`}
            value={reason}
            maxLength={500}
            rows={2}
            error={error}
            errorAlert
            onChange={(e) => setReason(e.target.value)}
          />
        )}
        <div className="cluster">
          {!rejecting && (
            <button type="button" className="btn btn-primary btn-small" disabled={review.isPending} onClick={() => void decide(false)}>
              {t`Approve`}
            </button>
          )}
          {rejecting ? (
            <>
              <button type="button" className="btn btn-secondary btn-small" disabled={review.isPending} onClick={() => void decide(true)}>
                {t`Reject with this reason`}
              </button>
              <button type="button" className="btn btn-ghost btn-small" onClick={() => setRejecting(false)}>
                {t`Cancel`}
              </button>
            </>
          ) : (
            <button type="button" className="btn btn-ghost btn-small" onClick={() => setRejecting(true)}>
              {t`Reject…`}
            </button>
          )}
        </div>
      </article>
    </li>
  );
}

/** Staff console → Ad review: creatives waiting for approval, oldest first. */
export function AdReviewQueue() {
  useLocale();
  const queue = useReviewQueue();
  return (
    <section className="admin-panel stack" aria-labelledby="ad-review-title">
      <h2 id="ad-review-title">{t`Ad review`}</h2>
      <p className="muted">
        {t`Nothing is shown to visitors until it is approved here. A campaign whose last creative is rejected ends and is refunded.`}
      </p>
      <QueryState
        data={queue.data}
        error={queue.isError ? errorMessage(queue.error, t`Failed to load the review queue`) : null}
        onRetry={() => void queue.refetch()}
        loading={
          <p role="status" className="muted">
            {t`Loading the review queue…`}
          </p>
        }
        isEmpty={(items) => items.length === 0}
        empty={<p className="muted">{t`Nothing is waiting for review.`}</p>}
      >
        {(items) => (
          <ul className="campaign-list stack" aria-label={t`Waiting for review`}>
            {items.map((item) => (
              <ReviewCard key={item.creative._id} item={item} />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}

/**
 * Staff console → Ad campaigns: every campaign, with its report; house campaigns are marked, and
 * admins create, pause, resume and stop them here (docs/decisions/0283).
 */
export function StaffCampaignList({ isAdmin = false }: { isAdmin?: boolean }) {
  useLocale();
  const campaigns = useStaffCampaigns();
  const [reportOf, setReportOf] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const shown = campaigns.data?.find((c) => c._id === reportOf) ?? null;
  return (
    <section className="admin-panel stack" aria-labelledby="ad-campaigns-title">
      <div className="cluster">
        <h2 id="ad-campaigns-title">{t`Ad campaigns`}</h2>
        {isAdmin && (
          <button type="button" className="btn btn-secondary btn-small" aria-expanded={creating} onClick={() => setCreating((v) => !v)}>
            {creating ? t`Close the form` : t`New house campaign`}
          </button>
        )}
      </div>
      {isAdmin && creating && <CampaignForm house onCreated={() => setCreating(false)} />}
      <QueryState
        data={campaigns.data}
        error={campaigns.isError ? errorMessage(campaigns.error, t`Failed to load campaigns`) : null}
        onRetry={() => void campaigns.refetch()}
        loading={
          <p role="status" className="muted">
            {t`Loading campaigns…`}
          </p>
        }
        isEmpty={(list) => list.length === 0}
        empty={<p className="muted">{t`No campaigns yet.`}</p>}
      >
        {(list) => (
          <div className="grid grid-2">
            {list.map((c) => (
              <CampaignCard key={c._id} campaign={c} controls={false} houseControls={isAdmin} onReport={() => setReportOf(c._id)} />
            ))}
          </div>
        )}
      </QueryState>
      {shown && <CampaignReport campaign={shown} staff />}
    </section>
  );
}
