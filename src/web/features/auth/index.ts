/**
 * The auth feature's public entry: what other features may use (eslint.config.js keeps the rest
 * private). The session is client state, in Zustand. The balance query is in `./credits`, a separate
 * entry: the app shell imports this one, and must not carry TanStack Query (docs/decisions/0093).
 */
export { initialSessionState, isGuestUser, onUserLogin, useSessionStore } from './stores/session-store';
