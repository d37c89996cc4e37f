/** The ads feature's public entry: the slot pages show, and the staff tool the operator console mounts. */
export { AdSlot } from './components/ad-slot';
export { AdsManager } from './components/ads-manager';
