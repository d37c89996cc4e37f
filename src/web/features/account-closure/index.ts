/** Closing an account (decision 0255): the settings section, the sign-in page's restore step, the staff console's list. */
export {
  CloseAccountSection,
  forgetClosedAccountNotice,
  readClosedAccountNotice,
  type ClosedAccountState,
} from './components/close-account-section';
export { PendingClosuresPanel } from './components/pending-closures-panel';
export { accountClosingOf, RestoreAccount } from './components/restore-account';
