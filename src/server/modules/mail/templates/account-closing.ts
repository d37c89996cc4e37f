import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/** Sent when someone closes their account: when it will be erased, what is lost, and how to change one's mind. */
export function accountClosingMail(
  tr: Translator,
  input: {
    username: string;
    erasureAt: Date;
    /** Days from now to the erasure. */
    days: number;
    balanceCents: number;
    /** What the paused ad campaigns still hold, forfeited with the balance. */
    reserveCents: number;
    signInUrl: string;
  },
): RenderedMail {
  const total = tr.cents(input.balanceCents + input.reserveCents);
  const forfeited =
    input.reserveCents > 0
      ? tr.t(/*i18n*/ '{total} credits (your balance of {balance}, and {reserve} your paused ad campaigns still hold)', {
          total,
          balance: tr.cents(input.balanceCents),
          reserve: tr.cents(input.reserveCents),
        })
      : tr.t(/*i18n*/ '{credits} credits', { credits: total });
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your Olympus account is closing'),
      heading: tr.t(/*i18n*/ 'Your account is closing'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Hello {username}, you asked to close your Olympus account. Every session was signed out, your webhook and API use stopped, your ad campaigns were paused, and your Discord and Telegram connections were removed.',
            { username: input.username },
          ),
        },
        {
          kind: 'facts',
          rows: [
            [
              tr.t(/*i18n*/ 'Erased on'),
              tr.t(/*i18n*/ '{date} ({days} days from now)', { date: tr.date(input.erasureAt), days: input.days }),
            ],
            [tr.t(/*i18n*/ 'Credits forfeited then'), forfeited],
          ],
        },
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Changed your mind? Until that date, sign in with your username and password and choose "Restore my account". Your balance, orders, API use and webhook come back as they were; your ad campaigns stay paused until you resume them, and Discord or Telegram must be connected again.',
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Sign in to restore my account'), url: input.signInUrl },
        { kind: 'p', text: tr.t(/*i18n*/ 'If you did not ask for this, sign in and restore the account now, then change your password.') },
      ],
      reason: tr.t(/*i18n*/ 'This is an account notice; it is always sent.'),
    },
    tr,
  );
}
