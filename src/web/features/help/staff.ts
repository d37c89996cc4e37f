/** The help centre's entry for the staff console (kept apart so customer pages never load it). */
export { HelpManager } from './components/help-manager';
