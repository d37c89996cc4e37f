/** The payments feature's public entry: the dashboard's top-up form and its two histories. */
export { LedgerHistory } from './components/ledger-history';
export { PaymentHistory } from './components/payment-history';
export { TopUpPanel } from './components/top-up-panel';
export { OutstandingNotice } from './components/outstanding-notice';
export { topUpLink } from './top-up-link';
export { describeLedgerEntry, describeDebt, describeLedgerText } from './components/ledger-describe';
