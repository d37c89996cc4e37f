import { renderMail, type RenderedMail } from './layout.js';

/**
 * Sent when a closing account is restored (decision 0304): a security notice, like a password change,
 * so someone who restored an account that was not theirs to restore is seen by its owner.
 */
export function accountRestoredMail(input: {
  username: string;
  when: string;
  ip: string;
  cameBack: string[];
  toRedo: string[];
  forgotUrl: string;
}): RenderedMail {
  return renderMail({
    subject: 'Your Olympus account was restored',
    heading: 'Your account was restored',
    blocks: [
      { kind: 'p', text: `Hello ${input.username}, your Olympus account was restored: it is no longer closing and will not be erased.` },
      {
        kind: 'facts',
        rows: [
          ['When', input.when],
          ['From IP address', input.ip],
        ],
      },
      { kind: 'p', text: `What came back: ${input.cameBack.join('; ')}.` },
      ...(input.toRedo.length > 0 ? [{ kind: 'p' as const, text: `What to do again yourself: ${input.toRedo.join('; ')}.` }] : []),
      { kind: 'p', text: 'If this was not you, reset your password now and contact support.' },
      { kind: 'button', label: 'Reset my password', url: input.forgotUrl },
    ],
    reason: 'This is a security notice; it is always sent.',
  });
}
