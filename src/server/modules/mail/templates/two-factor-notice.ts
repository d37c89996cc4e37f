import type { TwoFactorChange, TwoFactorNoticeKind } from '#server/events/domain-events.js';
import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export type { TwoFactorChange, TwoFactorNoticeKind };

function texts(tr: Translator, kind: TwoFactorNoticeKind, username: string): { subject: string; body: string } {
  switch (kind) {
    case 'enabled':
      return {
        subject: tr.t(/*i18n*/ 'Two-factor sign-in was turned on'),
        body: tr.t(
          /*i18n*/ 'Hello {username}, two-factor sign-in was just turned on for your Olympus account. Signing in now also asks for a code from your authenticator app.',
          { username },
        ),
      };
    case 'disabled':
      return {
        subject: tr.t(/*i18n*/ 'Two-factor sign-in was turned off'),
        body: tr.t(
          /*i18n*/ 'Hello {username}, two-factor sign-in was just turned off for your Olympus account. Signing in now asks for your password only.',
          { username },
        ),
      };
    case 'disabled_by_admin':
      return {
        subject: tr.t(/*i18n*/ 'Two-factor sign-in was turned off by support'),
        body: tr.t(
          /*i18n*/ 'Hello {username}, at your request, our support team turned off two-factor sign-in for your Olympus account and removed its passkeys and recovery codes.',
          { username },
        ),
      };
    case 'recovery_code_used':
      return {
        subject: tr.t(/*i18n*/ 'A recovery code was used to sign in'),
        body: tr.t(/*i18n*/ 'Hello {username}, a recovery code was just used to sign in to your Olympus account. Each code works once.', {
          username,
        }),
      };
    case 'passkey_added':
      return {
        subject: tr.t(/*i18n*/ 'A passkey was added to your account'),
        body: tr.t(
          /*i18n*/ 'Hello {username}, a new passkey was just added to your Olympus account. It can sign in without your password.',
          {
            username,
          },
        ),
      };
  }
}

/** The change's facts as label and value rows, in the reader's language. */
export function twoFactorFacts(tr: Translator, change: TwoFactorChange): Array<[string, string]> {
  switch (change.kind) {
    case 'recovery_code_used':
      return [[tr.t(/*i18n*/ 'Recovery codes left'), String(change.codesLeft ?? 0)]];
    case 'passkey_added':
      return [[tr.t(/*i18n*/ 'Passkey'), change.passkeyName ?? '']];
    default:
      return [];
  }
}

/** The one-line description of the change the in-app notice shows ("recovery code used (Recovery codes left: 7)"). */
export function twoFactorDetail(tr: Translator, change: TwoFactorChange): string {
  const what = {
    enabled: tr.t(/*i18n*/ 'enabled'),
    disabled: tr.t(/*i18n*/ 'disabled'),
    disabled_by_admin: tr.t(/*i18n*/ 'disabled by admin'),
    recovery_code_used: tr.t(/*i18n*/ 'recovery code used'),
    passkey_added: tr.t(/*i18n*/ 'passkey added'),
  }[change.kind];
  const facts = twoFactorFacts(tr, change);
  return facts.length ? `${what} (${facts.map(([k, v]) => `${k}: ${v}`).join(', ')})` : what;
}

export function twoFactorNoticeMail(
  tr: Translator,
  input: {
    change: TwoFactorChange;
    username: string;
    when: string;
    settingsUrl: string;
  },
): RenderedMail {
  const text = texts(tr, input.change.kind, input.username);
  return renderMail(
    {
      subject: text.subject,
      heading: text.subject,
      blocks: [
        { kind: 'p', text: text.body },
        { kind: 'facts', rows: [[tr.t(/*i18n*/ 'When'), input.when], ...twoFactorFacts(tr, input.change)] },
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'If this was not you, change your password and review your two-factor settings now, then contact support.'),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Open security settings'), url: input.settingsUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}
