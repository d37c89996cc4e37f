import { t } from '@lingui/core/macro';
import { useState, type CSSProperties } from 'react';
import { AD_ANIMATION_MS } from '#shared/constants';
import type { AdPlacement, PublicAd } from '#shared/schemas/ads';
import { useLocale } from '#web/features/language';
import { useAd } from '../api/get-ad';
import { useViewable } from '../hooks/use-viewable';
import { useAdsStore } from '../stores/ads-store';
import '../ads.css';

interface AdSlotProps {
  placement: AdPlacement;
  className?: string;
}

/**
 * An ad image is our copy, taken when the ad was approved (docs/decisions/0303): any other address
 * (an advertiser's server, which would see every viewer) is never loaded; the ad shows without it.
 */
function isOurImage(url: string | null): url is string {
  return url !== null && /^\/api\/ads\/images\/[0-9a-f-]{36}$/i.test(url);
}

/**
 * One ad for a placement. Shows nothing while loading, when no ad is live, or when ads cannot be
 * fetched: an ad is never worth an error message. It is labelled as an ad, links through the tracked
 * redirect, and counts a viewable impression (half of it on screen for one second) at most once per
 * 30 minutes in this browser.
 */
export function AdSlot({ placement, className }: AdSlotProps) {
  useLocale();
  const ad: PublicAd | null = useAd(placement) ?? null;
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [paused, setPaused] = useState(false);
  const recordImpression = useAdsStore((s) => s.recordImpression);

  useViewable(
    element,
    () => {
      if (ad) void recordImpression(ad._id);
    },
    ad !== null,
  );

  if (!ad) return null;

  const style = { '--ad-animation-ms': `${AD_ANIMATION_MS}ms` } as CSSProperties;
  return (
    <section
      ref={setElement}
      className={['ad-slot', className].filter(Boolean).join(' ')}
      aria-label={t`Sponsored`}
      data-placement={placement}
      data-ad-id={ad._id}
      data-animation={paused ? 'paused' : 'running'}
      style={style}
    >
      <a className="ad-card" href={ad.clickUrl} rel="sponsored noopener">
        <span className="ad-label">{t`Ad · Sponsored`}</span>
        {ad.kind === 'image' && isOurImage(ad.imageUrl) && (
          <img className="ad-image" src={ad.imageUrl} alt={ad.imageAlt} loading="lazy" decoding="async" />
        )}
        <span className="ad-text">
          <span className="ad-title">{ad.title}</span>
          {ad.body && <span className="ad-body">{ad.body}</span>}
          {ad.displayHost && <span className="ad-host">{ad.displayHost}</span>}
        </span>
      </a>
      {/* WCAG 2.2.2: a repeating animation needs a way to stop it (reduced-motion users never see it). */}
      <button type="button" className="ad-pause" aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
        {paused ? t`Play animation` : t`Pause animation`}
      </button>
    </section>
  );
}
