import { renderMail, type RenderedMail } from './layout.js';

export function resetPasswordMail(input: { username: string; url: string }): RenderedMail {
  return renderMail({
    subject: 'Reset your password',
    heading: 'Reset your password',
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, someone (hopefully you) asked to reset the password of your Olympus account.` },
      { kind: 'button', label: 'Choose a new password', url: input.url },
      {
        kind: 'p',
        text: 'The link works once and for 1 hour; asking again makes this link invalid. If you did not ask, ignore this message: your password stays as it is.',
      },
    ],
    reason: 'You receive this because a password reset was requested for your Olympus account.',
  });
}
