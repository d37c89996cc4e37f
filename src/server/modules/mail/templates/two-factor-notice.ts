import { renderMail, type RenderedMail } from './layout.js';

/** What changed in an account's sign-in security (decision 0140): each a security notice, always sent. */
export type TwoFactorNoticeKind = 'enabled' | 'disabled' | 'disabled_by_admin' | 'recovery_code_used' | 'passkey_added';

const TEXTS: Record<TwoFactorNoticeKind, { subject: string; body: string }> = {
  enabled: {
    subject: 'Two-factor sign-in was turned on',
    body: 'two-factor sign-in was just turned on for your Olympus account. Signing in now also asks for a code from your authenticator app.',
  },
  disabled: {
    subject: 'Two-factor sign-in was turned off',
    body: 'two-factor sign-in was just turned off for your Olympus account. Signing in now asks for your password only.',
  },
  disabled_by_admin: {
    subject: 'Two-factor sign-in was turned off by support',
    body: 'at your request, our support team turned off two-factor sign-in for your Olympus account and removed its passkeys and recovery codes.',
  },
  recovery_code_used: {
    subject: 'A recovery code was used to sign in',
    body: 'a recovery code was just used to sign in to your Olympus account. Each code works once.',
  },
  passkey_added: {
    subject: 'A passkey was added to your account',
    body: 'a new passkey was just added to your Olympus account. It can sign in without your password.',
  },
};

export function twoFactorNoticeMail(input: {
  kind: TwoFactorNoticeKind;
  username: string;
  when: string;
  /** Extra facts (passkey name, recovery codes left); already plain text, escaped by the layout. */
  facts: Array<[string, string]>;
  settingsUrl: string;
}): RenderedMail {
  const text = TEXTS[input.kind];
  return renderMail({
    subject: text.subject,
    heading: text.subject,
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, ${text.body}` },
      { kind: 'facts', rows: [['When', input.when], ...input.facts] },
      { kind: 'p', text: 'If this was not you, change your password and review your two-factor settings now, then contact support.' },
      { kind: 'button', label: 'Open security settings', url: input.settingsUrl },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}
