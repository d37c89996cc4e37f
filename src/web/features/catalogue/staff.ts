/** Public entry of the catalogue feature for the operator console: the catalogue and orders tools. */
export { CataloguePanel } from './components/catalogue-panel';
