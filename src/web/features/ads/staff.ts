/** Public entry of the ads feature for the operator console: the staff tool. */
export { AdsManager } from './components/ads-manager';
