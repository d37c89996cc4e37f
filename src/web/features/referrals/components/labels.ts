import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, plural, t } from '@lingui/core/macro';
import type { ReferralRefusalReason, ReferralSettings, ReferralStatus } from '#shared/schemas/referrals';
import { formatLocaleCredits, formatLocaleDate, formatLocalePercent } from '#web/lib/format';

/*
 * The referral programme's codes in words, in the page's language (decision 0326): the API and the
 * staff console's filters use the codes, people read these.
 */

export const REFERRAL_STATUS_LABELS: Record<ReferralStatus, MessageDescriptor> = {
  joined: msg`Joined`,
  qualified: msg`Topped up`,
  rewarded: msg`Rewarded`,
  refused: msg`Refused`,
};

/** Why a referral earns nothing, as the referrer reads it. */
export const REFUSAL_REASON_LABELS: Record<ReferralRefusalReason, MessageDescriptor> = {
  same_account: msg`It is your own account.`,
  same_email: msg`The account shares an email address with yours.`,
  same_device: msg`The account was made on the same device as yours.`,
  same_address: msg`The account uses the same network address as yours.`,
  same_payout_address: msg`The account pays out to the same address as yours.`,
  refused_by_staff: msg`Our staff refused it.`,
  reversed_by_staff: msg`Our staff reversed it and took back what it had earned.`,
};

/** The same reasons, shorter, for the staff console. */
export const STAFF_REFUSAL_REASON_LABELS: Record<ReferralRefusalReason, MessageDescriptor> = {
  same_account: msg`Same account`,
  same_email: msg`Same email`,
  same_device: msg`Same device`,
  same_address: msg`Same network address`,
  same_payout_address: msg`Same payout address`,
  refused_by_staff: msg`Refused by staff`,
  reversed_by_staff: msg`Reversed by staff`,
};

/** A code in the page's language; one the table does not know is shown as it came. */
export function referralLabel(labels: Readonly<Record<string, MessageDescriptor>>, code: string): string {
  const label = Object.hasOwn(labels, code) ? labels[code] : undefined;
  return label ? i18n._(label) : code;
}

/** The referrer's share as a percentage: 1000 basis points → "10%", 250 → "2.5%". */
export const sharePercent = (basisPoints: number) => formatLocalePercent(basisPoints / 100, 2, { trimZeros: true });

/**
 * The programme in a few sentences, from its settings: what the referrer earns, for how long and up to
 * what; the referred person's bonus; when a reward can be spent.
 */
export function programmeSentences(settings: ReferralSettings): string[] {
  const share = sharePercent(settings.shareBasisPoints);
  const cap = formatLocaleCredits(settings.capPerReferredCents);
  const bonus = formatLocaleCredits(settings.welcomeBonusCents);
  const days = settings.rewardDays;
  const hold = settings.holdDays;
  const earn = plural(days, {
    one: `You earn ${share} of each top-up of the people who join with your link for # day, up to ${cap} credits each.`,
    other: `You earn ${share} of each top-up of the people who join with your link for # days, up to ${cap} credits each.`,
  });
  const welcome = settings.welcomeBonusCents > 0 ? t`They get a ${bonus} credit welcome bonus on their first top-up.` : null;
  const spend =
    hold === 0
      ? t`Rewards can be spent as soon as they are earned.`
      : plural(hold, {
          one: `Rewards can be spent # day after they are earned.`,
          other: `Rewards can be spent # days after they are earned.`,
        });
  return [earn, welcome, spend].filter((s): s is string => s !== null);
}

/** The limits on what one referrer earns, in one sentence. */
export function limitsSentence(settings: ReferralSettings): string {
  const daily = formatLocaleCredits(settings.dailyCapCents);
  const lifetime = formatLocaleCredits(settings.lifetimeCapCents);
  return t`You can earn up to ${daily} credits a day and ${lifetime} credits in all.`;
}

/** "12.50 credits" in the language on screen. */
export function creditsLabel(cents: number): string {
  const amount = formatLocaleCredits(cents);
  return t`${amount} credits`;
}

/** The calendar day of a moment (UTC), in the language: "7 December 2026". */
export const dayOf = (iso: string) => formatLocaleDate(iso.slice(0, 10));
