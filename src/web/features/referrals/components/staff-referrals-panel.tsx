import { useLocale } from '#web/features/language';
import { ReferralReport } from './referral-report';
import { ReferralSettingsPanel } from './referral-settings-form';
import { StaffReferralsList } from './staff-referrals-list';
import '../referrals.css';

/**
 * The staff console's Referrals (admins; docs/product.md#referrals): every referral with the signals
 * its two accounts share, Refuse and Reverse with a note the referrer reads, the weekly report and the
 * programme's settings with their history. The server enforces who may do what.
 */
export function StaffReferralsPanel() {
  useLocale();
  return (
    <div className="stack referral-console">
      <StaffReferralsList />
      <ReferralReport />
      <ReferralSettingsPanel />
    </div>
  );
}
