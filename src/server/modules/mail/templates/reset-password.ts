import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export function resetPasswordMail(tr: Translator, input: { username: string; url: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Reset your password'),
      heading: tr.t(/*i18n*/ 'Reset your password'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, someone (hopefully you) asked to reset the password of your Olympus account.', {
            username: input.username,
          }),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Choose a new password'), url: input.url },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'The link works once and for 1 hour; asking again makes this link invalid. If you did not ask, ignore this message: your password stays as it is.',
          ),
        },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because a password reset was requested for your Olympus account.'),
    },
    tr,
  );
}
