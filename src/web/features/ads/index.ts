/**
 * The ads feature's public entry: the slot pages show. The staff tool has its own entry (`./staff`),
 * so a page showing an ad does not load the ad manager and its schemas.
 */
export { AdSlot } from './components/ad-slot';
