/** The catalogue feature's public entry: the dashboard's "Use your credits" (users) and the guests' catalogue. */
export { GuestCatalogue } from './components/guest-catalogue';
export { CatalogueSection } from './components/catalogue-section';
