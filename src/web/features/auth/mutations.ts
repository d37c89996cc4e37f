/** Public entry of the auth feature for screens that change the session: its mutation hooks. */
export { useCompleteOnboarding, useGuestLogin, useLogin, useLogout, useRegister } from './api/session-mutations';
