/** Public entry of the referrals feature for the operator console. */
export { StaffReferralsPanel } from './components/staff-referrals-panel';
