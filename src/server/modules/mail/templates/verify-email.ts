import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

export function verifyEmailMail(tr: Translator, input: { username: string; url: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Confirm your email'),
      heading: tr.t(/*i18n*/ 'Confirm your email address'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, please confirm that this address belongs to your Olympus account.', {
            username: input.username,
          }),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Confirm my email'), url: input.url },
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'The link works once and for 48 hours. If you did not create an account, you can ignore this message.'),
        },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because this address was used to register at Olympus.'),
    },
    tr,
  );
}
