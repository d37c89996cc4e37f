import { renderMail, type RenderedMail } from './layout.js';

/** "Your copy of your data is ready" (docs/product.md#privacy): where to download it and until when. */
export function dataExportReadyMail(input: { username: string; expires: string; settingsUrl: string }): RenderedMail {
  return renderMail({
    subject: 'Your copy of your data is ready',
    heading: 'Your copy of your data is ready',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, the copy of your Olympus data you asked for is ready. Sign in and download it from Settings, Privacy.`,
      },
      { kind: 'facts', rows: [['Available until', input.expires]] },
      { kind: 'button', label: 'Download my data', url: input.settingsUrl },
      { kind: 'p', text: 'If you did not ask for it, change your password and contact support: someone may be signed in to your account.' },
    ],
    reason: 'This is an account notice; it is always sent.',
  });
}
