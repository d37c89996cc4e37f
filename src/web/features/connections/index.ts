/** The connections feature's public entry: the settings panel for Discord and Telegram. */
export { ConnectionsPanel } from './components/connections-panel';
