/** Public entry of the auth feature for screens that show the balance: the query that reads it, and its key. */
export { creditsQueryOptions, useCredits } from './api/get-credits';
export { sessionKeys } from './api/session-keys';
