/** The shop feature's public entry: the dashboard's "Use your credits" (users) and the guests' catalogue. */
export { GuestCatalogue } from './components/guest-catalogue';
export { ShopSection } from './components/shop-section';
