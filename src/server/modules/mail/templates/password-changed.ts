import { renderMail, type RenderedMail } from './layout.js';

export function passwordChangedMail(input: { username: string; when: string; ip: string; forgotUrl: string }): RenderedMail {
  return renderMail({
    subject: 'Your password was changed',
    heading: 'Your password was changed',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, the password of your Olympus account was just changed. Every other session was signed out.`,
      },
      {
        kind: 'facts',
        rows: [
          ['When', input.when],
          ['From IP address', input.ip],
        ],
      },
      { kind: 'p', text: 'If this was not you, reset your password now and contact support.' },
      { kind: 'button', label: 'Reset my password', url: input.forgotUrl },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}
