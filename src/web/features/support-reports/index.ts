/** Support desk reports for the staff console (docs/decisions/0295). */
export { SupportReportsPanel } from './components/support-reports-panel';
