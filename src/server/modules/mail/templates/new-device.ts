import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export function newDeviceMail(
  tr: Translator,
  input: {
    username: string;
    browser: string;
    ip: string;
    when: string;
    sessionsUrl: string;
    forgotUrl: string;
  },
): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'New sign-in to your account'),
      heading: tr.t(/*i18n*/ 'New sign-in from a device you have not used before'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, your Olympus account was just signed in to from a new device.', {
            username: input.username,
          }),
        },
        {
          kind: 'facts',
          rows: [
            [tr.t(/*i18n*/ 'Browser'), input.browser],
            [tr.t(/*i18n*/ 'IP address'), input.ip],
            [tr.t(/*i18n*/ 'When'), input.when],
          ],
        },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'If this was you, there is nothing to do. If it was not, end that session in your settings and reset your password now.',
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'See my sessions'), url: input.sessionsUrl },
        { kind: 'button', label: tr.t(/*i18n*/ 'Reset my password'), url: input.forgotUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}
