import { t } from '@lingui/core/macro';
import { ACCOUNT_ERASURE_DELAY_DAYS } from '#shared/constants';
import { PRIVACY_EMAIL } from './site';
import type { LegalDocument } from './types';

/** A storage key, named as it is stored (one per payment): not a message placeholder. */
const PAYMENT_EXPIRY_KEY = 'payment_expiry_{id}';

/**
 * The privacy policy. Each section id is also a URL: /privacy/cookies opens the policy at "Cookies and
 * local storage". Change `updated` whenever the text changes.
 */
export function privacyPolicy(): LegalDocument {
  return {
    title: t`Privacy Policy`,
    updated: '2026-11-26',
    intro: t`This policy explains what personal data Olympus collects when you use the website and its services, why we collect it, who we share it with and the choices you have. We collect as little as we can to run the service and keep it safe.`,
    sections: [
      {
        id: 'who-we-are',
        title: t`Who we are`,
        blocks: [
          {
            kind: 'p',
            text: t`Olympus ("we", "us") operates this website, the credits balance, crypto top-ups, instant swaps, support tickets and the related services. We are the controller of the personal data described in this policy.`,
          },
        ],
      },
      {
        id: 'data-we-collect',
        title: t`Data we collect`,
        blocks: [
          { kind: 'p', text: t`Depending on how you use Olympus, we process:` },
          {
            kind: 'ul',
            items: [
              t`Account data: your username, email address and a one-way hash of your password (we never store the password itself).`,
              t`Guest data: a random guest identifier created when you continue as a guest, so your swaps and tickets stay yours before you register.`,
              t`Session data: a record of each signed-in session (when it started, when it was last used and when it ends) so that you can see and end your sessions.`,
              t`Payment data: the amount, currency, deposit address, provider payment id, status and, if you give it, the transaction hash of each top-up. We never receive your wallet keys.`,
              t`Swap data: the currencies, amounts, the payout address you enter and the status of each swap, and a hashed claim code for guest rewards.`,
              t`Support data: the subject, category and messages of your tickets, and any details you choose to include.`,
              t`Connected accounts: your Discord id, username and avatar, or your Telegram id, username, first and last name, when you connect them.`,
              t`Technical data: IP address, browser type and request times, used for security, rate limiting and fixing errors.`,
            ],
          },
        ],
      },
      {
        id: 'how-we-use-data',
        title: t`How we use your data`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`To provide the service you asked for: keeping your balance, processing top-ups and swaps, crediting rewards and answering tickets (performance of our contract with you).`,
              t`To keep Olympus secure: verifying sign-ins, stopping automated abuse with a bot check, limiting repeated attempts and investigating fraud (our legitimate interest in a safe service).`,
              t`To meet legal obligations, such as keeping payment records for the periods accounting and anti-money-laundering rules require.`,
              t`To send you the webhooks and service messages you configure. We do not send marketing email unless you opt in.`,
            ],
          },
          { kind: 'p', text: t`We do not sell your personal data and we do not use it to build advertising profiles.` },
        ],
      },
      {
        id: 'payments-and-swaps',
        title: t`Payments and swaps`,
        blocks: [
          {
            kind: 'p',
            text: t`Crypto top-ups are processed by NOWPayments and swaps by our exchange partner. They receive the payment or swap details they need to process it and handle them under their own privacy policies. Transactions on public blockchains are visible to anyone and cannot be erased by us or by anyone else.`,
          },
        ],
      },
      {
        id: 'connected-accounts',
        title: t`Connected accounts`,
        blocks: [
          {
            kind: 'p',
            text: t`When you connect Discord or Telegram, we receive only the profile details listed above, after you approve the connection with that platform. We use them to show which account is linked and to verify you in our communities. Disconnecting removes the link from your Olympus account.`,
          },
        ],
      },
      {
        id: 'cookies',
        title: t`Cookies and local storage`,
        blocks: [
          {
            kind: 'p',
            text: t`Olympus uses only what it needs to work. We do not use advertising or cross-site tracking cookies.`,
          },
          {
            kind: 'ul',
            items: [
              t`token (cookie and local storage): keeps you signed in; it lasts one day, or 30 days when you choose to be remembered.`,
              t`guestId (cookie and local storage): identifies your guest session.`,
              t`userType, userRole, userSubroles and sessionData (local storage): remember what kind of account is signed in so the right screens appear.`,
              t`${PAYMENT_EXPIRY_KEY} (local storage): remembers when an open payment expires, so the countdown survives a reload.`,
              t`olympus_reward_claims (local storage): keeps guest reward claim codes in your browser for up to 30 days so you can claim them after signing up.`,
            ],
          },
          { kind: 'p', text: t`Logging out clears this data from your browser.` },
        ],
      },
      {
        id: 'ads',
        title: t`Ads`,
        blocks: [
          {
            kind: 'p',
            text: t`Some pages show ads from our partners, served by Olympus itself. We count an impression when at least half of an ad was visible for one second, and count repeat views by the same visitor within 30 minutes once. Advertisers receive totals only, never who saw their ad.`,
          },
        ],
      },
      {
        id: 'sharing',
        title: t`Who we share data with`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`NOWPayments, to process crypto payments.`,
              t`Our swap partner, to execute swaps.`,
              t`Cloudflare, for the bot check shown at login and registration.`,
              t`Discord and Telegram, only when you connect those accounts.`,
              t`Our hosting and database providers, who store data on our behalf under written agreements.`,
              t`Authorities, when the law requires it and only what is required.`,
            ],
          },
        ],
      },
      {
        id: 'retention',
        title: t`How long we keep data`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`Account data: while your account exists. When you close your account in Settings, Privacy, it is erased ${ACCOUNT_ERASURE_DELAY_DAYS} days later; until then, signing in lets you restore it. Payment and credit records stay, as below, no longer linked to your name.`,
              t`Payment and credit records: for the period accounting and financial rules require (usually up to seven years), even after the account is closed.`,
              t`Support tickets: up to two years after a ticket is closed.`,
              t`Sessions and sign-in records: 30 days after a session ends.`,
              t`Guest data: 30 days after the guest was last active, and never while a guest swap is unfinished or its reward can still be claimed.`,
              t`One-time links: one day after they expire. Webhook delivery records: 30 days after they finish.`,
              t`Copies of your data that you download from Settings, Privacy: 7 days after they are ready.`,
            ],
          },
        ],
      },
      {
        id: 'security',
        title: t`Security`,
        blocks: [
          {
            kind: 'p',
            text: t`Passwords are hashed with argon2id. Traffic is encrypted in transit. Sessions can be revoked at any time, and changing your password ends your other sessions. Access to personal data within Olympus is limited to the staff who need it to help you.`,
          },
        ],
      },
      {
        id: 'your-rights',
        title: t`Your rights`,
        blocks: [
          {
            kind: 'p',
            text: t`Depending on where you live, you may have the right to access, correct, delete or export your personal data, to object to or restrict some processing, and to complain to a data protection authority. You can download a copy of your data and close your account yourself, in Settings, Privacy. To use any other right, write to us from the email address on your account; we answer within 30 days.`,
          },
        ],
      },
      {
        id: 'children',
        title: t`Children`,
        blocks: [
          {
            kind: 'p',
            text: t`Olympus is not intended for anyone under 18. We do not knowingly collect data from children; if you believe a child has given us personal data, contact us and we will delete it.`,
          },
        ],
      },
      {
        id: 'changes',
        title: t`Changes to this policy`,
        blocks: [
          {
            kind: 'p',
            text: t`When we change this policy we update the date at the top. If a change materially affects how we use your data, we tell you in the app before it takes effect.`,
          },
        ],
      },
      {
        // Not "contact": the footer's contact section already uses that id on every page.
        id: 'contact-us',
        title: t`Contact us`,
        blocks: [{ kind: 'p', text: t`Questions about privacy: ${PRIVACY_EMAIL}.` }],
      },
    ],
  };
}
