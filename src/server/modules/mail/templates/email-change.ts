import { renderMail, type RenderedMail } from './layout.js';

/** To the new address: the link that makes the change. */
export function confirmEmailChangeMail(input: { username: string; newEmail: string; url: string }): RenderedMail {
  return renderMail({
    subject: 'Confirm your new email address',
    heading: 'Confirm your new email address',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, you asked to use ${input.newEmail} for your Olympus account. The address changes when you open this link.`,
      },
      { kind: 'button', label: 'Use this address', url: input.url },
      { kind: 'p', text: 'The link works once and for 24 hours. If you did not ask for this, ignore this message.' },
    ],
    reason: 'You receive this because this address was entered in the settings of an Olympus account.',
  });
}

/** To the old address, when the change is asked for. */
export function emailChangeRequestedMail(input: { username: string; newEmail: string; forgotUrl: string }): RenderedMail {
  return renderMail({
    subject: 'A change of your email address was requested',
    heading: 'A change of your email address was requested',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, someone signed in to your Olympus account asked to change its email address to ${input.newEmail}. Nothing changes until the link sent to that address is opened.`,
      },
      { kind: 'p', text: 'If this was not you, change your password now: the request needed your current password.' },
      { kind: 'button', label: 'Reset my password', url: input.forgotUrl },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}

/** To the old address, once the change is made. */
export function emailChangedMail(input: { username: string; newEmail: string; when: string }): RenderedMail {
  return renderMail({
    subject: 'Your email address was changed',
    heading: 'Your email address was changed',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, your Olympus account now uses ${input.newEmail}. Mail will no longer come to this address.`,
      },
      { kind: 'facts', rows: [['When', input.when]] },
      { kind: 'p', text: 'If this was not you, contact support at once and answer this message.' },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}
