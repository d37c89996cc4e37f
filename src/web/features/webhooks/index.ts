/** The webhooks feature's public entry: the settings panel. */
export { WebhooksPanel } from './components/webhooks-panel';
