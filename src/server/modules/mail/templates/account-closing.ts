import { renderMail, type RenderedMail } from './layout.js';

/** Sent when someone closes their account: when it will be erased, what is lost, and how to change one's mind. */
export function accountClosingMail(input: {
  username: string;
  erasureDate: string;
  forfeitedCredits: string;
  signInUrl: string;
}): RenderedMail {
  return renderMail({
    subject: 'Your Olympus account is closing',
    heading: 'Your account is closing',
    blocks: [
      {
        kind: 'p',
        text: `Hello ${input.username}, you asked to close your Olympus account. Every session was signed out, your webhook and API use stopped, your ad campaigns were paused, and your Discord and Telegram connections were removed.`,
      },
      {
        kind: 'facts',
        rows: [
          ['Erased on', input.erasureDate],
          ['Credits forfeited then', input.forfeitedCredits],
        ],
      },
      {
        kind: 'p',
        text: 'Changed your mind? Until that date, sign in with your username and password and choose "Restore my account". Your balance, orders, API use and webhook come back as they were; your ad campaigns stay paused until you resume them, and Discord or Telegram must be connected again.',
      },
      { kind: 'button', label: 'Sign in to restore my account', url: input.signInUrl },
      { kind: 'p', text: 'If you did not ask for this, sign in and restore the account now, then change your password.' },
    ],
    reason: 'This is an account notice; it is always sent.',
  });
}
