/**
 * The auth feature's public entry: what other features may use (eslint.config.js keeps the rest
 * private). The session itself (client state, in Zustand) and the balance query that refreshes it.
 */
export { errorMessage, initialSessionState, isGuestUser, onUserLogin, useSessionStore } from './stores/session-store';
export { creditsQueryOptions, useCredits } from './api/get-credits';
