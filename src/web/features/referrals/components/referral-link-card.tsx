import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import type { ReferralSummary } from '#shared/schemas/referrals';
import { CopyButton } from '#web/components/ui/copy-button';
import { useLocale } from '#web/features/language';
import { limitsSentence, programmeSentences } from './labels';

/** The link to share: this site's own address before the path the server gives. */
export const referralLink = (linkPath: string, origin = window.location.origin) => `${origin}${linkPath}`;

/** Whether this browser offers its own share sheet (phones, some desktops). */
const canShare = () => typeof navigator !== 'undefined' && typeof navigator.share === 'function';

/**
 * My code and my link, with Copy (announced to screen readers by the copy button) and, where the
 * browser has a share sheet, Share; under them the programme in a few sentences from its settings.
 */
export function ReferralLinkCard({ summary }: { summary: ReferralSummary }) {
  useLocale();
  const id = useId();
  const link = referralLink(summary.linkPath);
  const [shareFailed, setShareFailed] = useState(false);

  async function share() {
    setShareFailed(false);
    try {
      await navigator.share({
        title: t`Join me on Olympus`,
        text: t`Sign up with my link and get a welcome bonus on your first top-up.`,
        url: link,
      });
    } catch (err) {
      // Closing the share sheet is no failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) setShareFailed(true);
    }
  }

  return (
    <section className="card referral-link-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t`Your link`}</h2>
      <dl className="referral-code">
        <dt>{t`Your code`}</dt>
        <dd>
          <code data-testid="referral-code">{summary.code}</code>
        </dd>
      </dl>
      <div className="referral-link-row">
        <label htmlFor={`${id}-link`} className="visually-hidden">
          {t`Your referral link`}
        </label>
        <input
          id={`${id}-link`}
          className="referral-link-input"
          data-testid="referral-link"
          readOnly
          value={link}
          onFocus={(e) => e.currentTarget.select()}
        />
        <div className="referral-link-actions">
          <CopyButton value={link} label={t`Copy your referral link`} />
          {canShare() && (
            <button type="button" className="btn btn-secondary btn-small" onClick={() => void share()}>
              {t`Share`}
            </button>
          )}
        </div>
      </div>
      {shareFailed && (
        <p className="field-error" role="alert">
          {t`Sharing did not work. Copy the link instead.`}
        </p>
      )}
      <div className="referral-programme">
        {programmeSentences(summary.settings).map((sentence) => (
          <p key={sentence}>{sentence}</p>
        ))}
        <p className="muted">{limitsSentence(summary.settings)}</p>
      </div>
    </section>
  );
}
