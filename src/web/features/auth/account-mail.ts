/** Public entry of the auth feature for screens about the account's email address (dashboard banner). */
export { useResendVerification } from './api/resend-verification';
