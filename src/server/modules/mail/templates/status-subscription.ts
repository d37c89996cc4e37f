import { renderMail, type RenderedMail } from './layout.js';

/** Double opt-in for status notices: nothing is sent to the address until this link is followed. */
export function statusConfirmMail(input: { confirmUrl: string; statusUrl: string; validDays: number }): RenderedMail {
  return renderMail({
    subject: 'Confirm your Olympus status subscription',
    heading: 'Confirm your subscription',
    blocks: [
      {
        kind: 'p',
        text: 'Someone (hopefully you) asked to receive Olympus status notices at this address: new incidents, their updates and scheduled maintenance.',
      },
      { kind: 'button', label: 'Confirm the subscription', url: input.confirmUrl },
      { kind: 'p', text: `The link works for ${input.validDays} days; after that, subscribe again to get a new one.` },
      {
        kind: 'p',
        text: `If it was not you, ignore this message: without confirmation nothing more is sent. The status page: ${input.statusUrl}`,
      },
    ],
    reason: 'You receive this because this address was entered on the Olympus status page.',
  });
}

/** A status notice: a new incident, an incident update or resolution, or new scheduled maintenance. */
export function statusNoticeMail(input: {
  subject: string;
  heading: string;
  facts: Array<[string, string]>;
  message: string;
  statusUrl: string;
  unsubscribeUrl: string;
}): RenderedMail {
  return renderMail({
    subject: input.subject,
    heading: input.heading,
    blocks: [
      { kind: 'facts', rows: input.facts },
      { kind: 'quote', text: input.message },
      { kind: 'button', label: 'Open the status page', url: input.statusUrl },
    ],
    reason: 'You receive this because you subscribed to Olympus status notices.',
    unsubscribeUrl: input.unsubscribeUrl,
  });
}
