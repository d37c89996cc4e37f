/** Business hours and SLA targets for the staff console (docs/decisions/0293). */
export { SlaSettingsPanel } from './components/sla-settings-panel';
