/** The exchange feature's public entry: the Exchange section, which loads its panel lazily, and the form that claims a guest's reward by hand. */
export { LazyExchangePanel } from './components/lazy-exchange-panel';
export { ClaimRewardForm } from './components/claim-reward-form';
