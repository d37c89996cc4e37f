/**
 * The auth feature's public entry: what other features may use (eslint.config.js keeps the rest
 * private). The session is client state, in Zustand; its start-up check and a guest start are plain
 * calls. The user and the balance are server state, reached through `./user` and `./credits`, separate
 * entries: the app shell imports this one, and must not carry TanStack Query (docs/decisions/0093, 0245).
 */
export {
  guestUser,
  initialSessionState,
  isGuestUser,
  onSessionUser,
  onUserLogin,
  signedInUserId,
  useSessionStore,
} from './stores/session-store';
export type { SessionUser } from './stores/session-store';
export { checkSession, startGuestSession } from './api/session-calls';
