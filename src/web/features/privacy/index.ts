/** The privacy feature's public entry: the Settings → Privacy section (a copy of my data, how long we keep things). */
export { PrivacySection } from './components/privacy-section';
