/** The two-factor feature's public entry: settings, the login second step, passkey sign-in and the staff pieces. */
export { AdminTwoFactorReset } from './components/admin-two-factor-reset';
export { LoginSecondStep } from './components/login-second-step';
export { PasskeySignInButton } from './components/passkey-sign-in-button';
export { StaffTwoFactorGate } from './components/staff-two-factor-gate';
export { StepUpField, useStepUp, type StepUp, type StepUpFieldsInput } from './components/step-up-field';
export { TwoFactorSettings } from './components/two-factor-settings';
