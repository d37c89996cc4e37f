/** Public entry of the auth feature for screens that show the balance: the query that refreshes it. */
export { creditsQueryOptions, useCredits } from './api/get-credits';
