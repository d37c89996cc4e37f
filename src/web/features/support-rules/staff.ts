/** The automation rules' entry for the staff console (kept apart so customer pages never load it). */
export { AutomationPanel } from './components/automation-panel';
