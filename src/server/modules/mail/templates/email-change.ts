import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/** To the new address: the link that makes the change. */
export function confirmEmailChangeMail(tr: Translator, input: { username: string; newEmail: string; url: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Confirm your new email address'),
      heading: tr.t(/*i18n*/ 'Confirm your new email address'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, you asked to use {newEmail} for your Olympus account. The address changes when you open this link.',
            { username: input.username, newEmail: input.newEmail },
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Use this address'), url: input.url },
        { kind: 'p', text: tr.t(/*i18n*/ 'The link works once and for 24 hours. If you did not ask for this, ignore this message.') },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because this address was entered in the settings of an Olympus account.'),
    },
    tr,
  );
}

/** To the old address, when the change is asked for. */
export function emailChangeRequestedMail(tr: Translator, input: { username: string; newEmail: string; forgotUrl: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'A change of your email address was requested'),
      heading: tr.t(/*i18n*/ 'A change of your email address was requested'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, someone signed in to your Olympus account asked to change its email address to {newEmail}. Nothing changes until the link sent to that address is opened.',
            { username: input.username, newEmail: input.newEmail },
          ),
        },
        { kind: 'p', text: tr.t(/*i18n*/ 'If this was not you, change your password now: the request needed your current password.') },
        { kind: 'button', label: tr.t(/*i18n*/ 'Reset my password'), url: input.forgotUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}

/** To the old address, once the change is made. */
export function emailChangedMail(tr: Translator, input: { username: string; newEmail: string; when: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your email address was changed'),
      heading: tr.t(/*i18n*/ 'Your email address was changed'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, your Olympus account now uses {newEmail}. Mail will no longer come to this address.', {
            username: input.username,
            newEmail: input.newEmail,
          }),
        },
        { kind: 'facts', rows: [[tr.t(/*i18n*/ 'When'), input.when]] },
        { kind: 'p', text: tr.t(/*i18n*/ 'If this was not you, contact support at once and answer this message.') },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}
