import { renderMail, type RenderedMail } from './layout.js';

export function newDeviceMail(input: {
  username: string;
  browser: string;
  ip: string;
  when: string;
  sessionsUrl: string;
  forgotUrl: string;
}): RenderedMail {
  return renderMail({
    subject: 'New sign-in to your account',
    heading: 'New sign-in from a device you have not used before',
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, your Olympus account was just signed in to from a new device.` },
      {
        kind: 'facts',
        rows: [
          ['Browser', input.browser],
          ['IP address', input.ip],
          ['When', input.when],
        ],
      },
      {
        kind: 'p',
        text: 'If this was you, there is nothing to do. If it was not, end that session in your settings and reset your password now.',
      },
      { kind: 'button', label: 'See my sessions', url: input.sessionsUrl },
      { kind: 'button', label: 'Reset my password', url: input.forgotUrl },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}
