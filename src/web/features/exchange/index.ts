/** The exchange feature's public entry: the Exchange section, which loads its panel lazily. */
export { LazyExchangePanel } from './components/lazy-exchange-panel';
