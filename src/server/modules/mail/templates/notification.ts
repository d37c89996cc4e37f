import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/**
 * The mail of a notification that has no template of its own (the event's title, text and link, already
 * in the reader's language).
 */
export function notificationMail(
  tr: Translator,
  input: { username: string; title: string; body: string; url: string; settingsUrl: string },
): RenderedMail {
  return renderMail(
    {
      subject: input.title,
      heading: input.title,
      blocks: [
        { kind: 'p', text: tr.t(/*i18n*/ 'Hello {username}, {notice}', { username: input.username, notice: input.body }) },
        { kind: 'button', label: tr.t(/*i18n*/ 'Open'), url: input.url },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because this notification is on for email in your settings ({settingsUrl}).', {
        settingsUrl: input.settingsUrl,
      }),
    },
    tr,
  );
}
