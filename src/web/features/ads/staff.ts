/** Public entry of the ads feature for the operator console: the staff tools. */
export { AdsManager } from './components/ads-manager';
export { AdReviewQueue, StaffCampaignList } from './components/staff-campaigns';
