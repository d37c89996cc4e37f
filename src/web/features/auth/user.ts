/** Public entry of the auth feature for screens that show who is signed in: the user's query and its key. */
export { sessionUserQueryOptions, useSessionUser } from './api/get-session-user';
export { sessionKeys } from './api/session-keys';
