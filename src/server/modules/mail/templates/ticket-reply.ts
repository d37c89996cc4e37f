import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

const EXCERPT_LENGTH = 500;

export function ticketReplyMail(
  tr: Translator,
  input: {
    username: string;
    number: number;
    subject: string;
    message: string;
    url: string;
    unsubscribeUrl: string;
  },
): RenderedMail {
  const excerpt = input.message.length > EXCERPT_LENGTH ? `${input.message.slice(0, EXCERPT_LENGTH)}…` : input.message;
  const number = String(input.number);
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'New reply on ticket #{number}', { number }),
      heading: tr.t(/*i18n*/ 'Support answered ticket #{number}', { number }),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, support replied to your ticket "{subject}".', {
            username: input.username,
            subject: input.subject,
          }),
        },
        { kind: 'quote', text: excerpt },
        { kind: 'button', label: tr.t(/*i18n*/ 'Read and reply'), url: input.url },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because ticket notifications are on in your settings.'),
      unsubscribeUrl: input.unsubscribeUrl,
    },
    tr,
  );
}
