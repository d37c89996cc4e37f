/** Public entry of the shop feature for the operator console: the catalogue and orders tools. */
export { ShopManager } from './components/shop-manager';
