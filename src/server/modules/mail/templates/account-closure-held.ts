import { renderMail, type RenderedMail } from './layout.js';

/**
 * Sent when a payment finishes for a closing account (decision 0305): the credits it bought were not
 * part of what the person agreed to forfeit, so the erasure waits until they decide again.
 */
export function accountClosureHeldMail(input: {
  username: string;
  payment: string;
  credits: string;
  balance: string;
  signInUrl: string;
}): RenderedMail {
  return renderMail({
    subject: 'A payment reached your closing Olympus account',
    heading: 'Your account is not erased yet',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, a payment you started finished after you closed your Olympus account. Its credits were added to your balance.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Payment', input.payment],
          ['Credits added', input.credits],
          ['Balance now', input.balance],
        ],
      },
      {
        kind: 'p',
        text: 'You did not agree to forfeit these credits, so your account will not be erased until you decide again. Sign in and choose "Restore my account" to use them; if you still want to leave, close the account again from Settings and confirm the new balance. You can also ask support to erase it now.',
      },
      { kind: 'button', label: 'Sign in to decide', url: input.signInUrl },
    ],
    reason: 'This is an account notice; it is always sent.',
  });
}
