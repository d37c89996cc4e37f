import { renderMail, type RenderedMail } from './layout.js';

const EXCERPT_LENGTH = 500;

export function ticketReplyMail(input: {
  username: string;
  number: number;
  subject: string;
  message: string;
  url: string;
  unsubscribeUrl: string;
}): RenderedMail {
  const excerpt = input.message.length > EXCERPT_LENGTH ? `${input.message.slice(0, EXCERPT_LENGTH)}…` : input.message;
  return renderMail({
    subject: `New reply on ticket #${input.number}`,
    heading: `Support answered ticket #${input.number}`,
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, support replied to your ticket "${input.subject}".` },
      { kind: 'quote', text: excerpt },
      { kind: 'button', label: 'Read and reply', url: input.url },
    ],
    reason: 'You receive this because ticket notifications are on in your settings.',
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
