import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export function passwordChangedMail(
  tr: Translator,
  input: { username: string; when: string; ip: string; forgotUrl: string },
): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your password was changed'),
      heading: tr.t(/*i18n*/ 'Your password was changed'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, the password of your Olympus account was just changed. Every other session was signed out.',
            { username: input.username },
          ),
        },
        {
          kind: 'facts',
          rows: [
            [tr.t(/*i18n*/ 'When'), input.when],
            [tr.t(/*i18n*/ 'From IP address'), input.ip],
          ],
        },
        { kind: 'p', text: tr.t(/*i18n*/ 'If this was not you, reset your password now and contact support.') },
        { kind: 'button', label: tr.t(/*i18n*/ 'Reset my password'), url: input.forgotUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}
