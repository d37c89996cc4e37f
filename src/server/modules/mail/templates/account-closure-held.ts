import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/**
 * Sent when a payment finishes for a closing account (decision 0305): the credits it bought were not
 * part of what the person agreed to forfeit, so the erasure waits until they decide again.
 */
export function accountClosureHeldMail(
  tr: Translator,
  input: {
    username: string;
    priceCents: number;
    /** The coin paid with, as its ticker (BTC). */
    currency: string;
    creditedCents: number;
    balanceCents: number;
    signInUrl: string;
  },
): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'A payment reached your closing Olympus account'),
      heading: tr.t(/*i18n*/ 'Your account is not erased yet'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, a payment you started finished after you closed your Olympus account. Its credits were added to your balance.',
            { username: input.username },
          ),
        },
        {
          kind: 'facts',
          rows: [
            [
              tr.t(/*i18n*/ 'Payment'),
              tr.t(/*i18n*/ '{amount} USD in {currency}', { amount: tr.cents(input.priceCents), currency: input.currency }),
            ],
            [tr.t(/*i18n*/ 'Credits added'), tr.t(/*i18n*/ '{credits} credits', { credits: tr.cents(input.creditedCents) })],
            [tr.t(/*i18n*/ 'Balance now'), tr.t(/*i18n*/ '{credits} credits', { credits: tr.cents(input.balanceCents) })],
          ],
        },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'You did not agree to forfeit these credits, so your account will not be erased until you decide again. Sign in and choose "Restore my account" to use them; if you still want to leave, close the account again from Settings and confirm the new balance. You can also ask support to erase it now.',
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Sign in to decide'), url: input.signInUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is an account notice; it is always sent.'),
    },
    tr,
  );
}
