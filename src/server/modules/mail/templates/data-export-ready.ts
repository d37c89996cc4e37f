import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/** "Your copy of your data is ready" (docs/product.md#privacy): where to download it and until when. */
export function dataExportReadyMail(tr: Translator, input: { username: string; expires: string; settingsUrl: string }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your copy of your data is ready'),
      heading: tr.t(/*i18n*/ 'Your copy of your data is ready'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, the copy of your Olympus data you asked for is ready. Sign in and download it from Settings, Privacy.',
            { username: input.username },
          ),
        },
        { kind: 'facts', rows: [[tr.t(/*i18n*/ 'Available until'), input.expires]] },
        { kind: 'button', label: tr.t(/*i18n*/ 'Download my data'), url: input.settingsUrl },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'If you did not ask for it, change your password and contact support: someone may be signed in to your account.',
          ),
        },
      ],
      reason: tr.t(/*i18n*/ 'This is an account notice; it is always sent.'),
    },
    tr,
  );
}
