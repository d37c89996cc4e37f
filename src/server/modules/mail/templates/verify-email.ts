import { renderMail, type RenderedMail } from './layout.js';

export function verifyEmailMail(input: { username: string; url: string }): RenderedMail {
  return renderMail({
    subject: 'Confirm your email',
    heading: 'Confirm your email address',
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, please confirm that this address belongs to your Olympus account.` },
      { kind: 'button', label: 'Confirm my email', url: input.url },
      { kind: 'p', text: 'The link works once and for 48 hours. If you did not create an account, you can ignore this message.' },
    ],
    reason: 'You receive this because this address was used to register at Olympus.',
  });
}
