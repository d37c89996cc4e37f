import { renderMail, type RenderedMail } from './layout.js';

/** The mail of a notification that has no template of its own (the event's title, text and link). */
export function notificationMail(input: { username: string; title: string; body: string; url: string; settingsUrl: string }): RenderedMail {
  return renderMail({
    subject: input.title,
    heading: input.title,
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, ${input.body}` },
      { kind: 'button', label: 'Open', url: input.url },
    ],
    reason: `You receive this because this notification is on for email in your settings (${input.settingsUrl}).`,
  });
}
