import { t } from '@lingui/core/macro';
import { PAYMENT_EXPIRY_S, REWARD_CLAIM_VALIDITY_HOURS } from '#shared/constants';
import { feeTierSentence } from './fee-tiers';
import { CONTACT_EMAIL } from './site';
import type { LegalDocument } from './types';

const paymentWindowMinutes = PAYMENT_EXPIRY_S / 60;
const claimWindowDays = REWARD_CLAIM_VALIDITY_HOURS / 24;

/**
 * The terms of service. Each section id is also a URL: /terms/credits opens the terms at "Credits".
 * Figures come from src/shared/constants.ts so the terms cannot drift from what the product does.
 */
export function termsOfService(): LegalDocument {
  return {
    title: t`Terms of Service`,
    updated: '2026-11-18',
    intro: t`These terms are the agreement between you and Olympus for using the website and its services. Please read them; they explain how credits, payments, swaps and rewards work and what each of us is responsible for.`,
    sections: [
      {
        id: 'acceptance',
        title: t`Accepting these terms`,
        blocks: [
          {
            kind: 'p',
            text: t`By using Olympus, as a guest or with an account, you agree to these terms and to our Privacy Policy. If you do not agree, do not use the service.`,
          },
        ],
      },
      {
        id: 'eligibility',
        title: t`Who can use Olympus`,
        blocks: [
          {
            kind: 'p',
            text: t`You must be at least 18 and allowed to use cryptocurrency services where you live. You may not use Olympus if you are subject to sanctions or acting for someone who is.`,
          },
        ],
      },
      {
        id: 'accounts',
        title: t`Accounts and guest sessions`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`You can continue as a guest or register an account. Guest sessions are tied to your browser; if you clear it, a guest session cannot be recovered.`,
              t`Keep your password secret. You are responsible for what happens in your account until you tell us it has been compromised.`,
              t`When you sign up or log in from a guest session, the guest session’s tickets and reward claims move to your account.`,
              t`You can see your active sessions and end any of them in your settings.`,
            ],
          },
        ],
      },
      {
        id: 'credits',
        title: t`Credits`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`Credits are a prepaid balance for use within Olympus. One credit corresponds to one US dollar of value at the time it is added.`,
              t`Credits are not a bank deposit, e-money, a security or an investment, earn no interest and cannot be transferred to other users.`,
              t`Credits are not exchangeable back into cryptocurrency or cash, except where the law requires a refund.`,
              t`Every change to your balance is recorded in a ledger you can review. If you believe a balance is wrong, open a support ticket and we will investigate.`,
            ],
          },
        ],
      },
      {
        id: 'payments',
        title: t`Crypto payments`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`Top-ups are processed by NOWPayments. The payment page shows the exact amount, currency and address (and a memo or destination tag where needed). Send exactly that currency, on that network, to that address.`,
              t`A processing fee applies, by the US dollar amount of the top-up: ${feeTierSentence()}. The fee and the credits you will receive are shown before you pay.`,
              t`A payment page stays open for ${paymentWindowMinutes} minutes. A payment that arrives after the countdown ends is still credited once it is confirmed.`,
              t`If you send less than requested, we credit the US dollar value actually received, minus the fee for that amount.`,
              t`Crypto sent to a wrong address, in a wrong currency or without a required memo may be lost. We will help you try to recover it but cannot guarantee the outcome.`,
              t`Blockchain transactions are final. We cannot reverse a transaction once it is sent.`,
            ],
          },
        ],
      },
      {
        id: 'swaps-and-rewards',
        title: t`Swaps and rewards`,
        blocks: [
          {
            kind: 'ul',
            items: [
              t`Swaps are executed by our exchange partner at the rate shown when you confirm. Network conditions can change the final amount within the range shown.`,
              t`You are responsible for entering a correct payout address. Swaps sent to a wrong address cannot be reversed.`,
              t`Each finished swap earns reward credits equal to a percentage of its US dollar value, shown before you swap.`,
              t`Guests receive a claim code for each swap. Rewards can be claimed for ${claimWindowDays} days after the swap by signing up or logging in; unclaimed rewards then expire.`,
              t`Each reward is credited once. We may withhold rewards from swaps that are cancelled, refunded or made to abuse the reward programme.`,
            ],
          },
        ],
      },
      {
        id: 'support',
        title: t`Support`,
        blocks: [
          {
            kind: 'p',
            text: t`Guests and account holders can open support tickets. We aim to answer every ticket within one working day. Never share your password or wallet keys in a ticket; our staff will never ask for them.`,
          },
        ],
      },
      {
        id: 'connected-accounts',
        title: t`Connected accounts`,
        blocks: [
          {
            kind: 'p',
            text: t`You may connect one Discord and one Telegram account. A chat account can be connected to only one Olympus account. Your use of those platforms is governed by their own terms.`,
          },
        ],
      },
      {
        id: 'acceptable-use',
        title: t`Acceptable use`,
        blocks: [
          { kind: 'p', text: t`You agree not to:` },
          {
            kind: 'ul',
            items: [
              t`use Olympus for money laundering, fraud, terrorist financing or any other unlawful purpose;`,
              t`attempt to access other users’ accounts, data or funds;`,
              t`interfere with the service, bypass rate limits or the bot check, or probe it for vulnerabilities without our written permission (report security issues to us instead);`,
              t`generate fake ad impressions, swaps or referrals.`,
            ],
          },
        ],
      },
      {
        id: 'third-parties',
        title: t`Third-party services`,
        blocks: [
          {
            kind: 'p',
            text: t`Olympus relies on NOWPayments, our swap partner, Cloudflare, Discord and Telegram. Their outages can affect Olympus; the status page shows the health of the providers we depend on.`,
          },
        ],
      },
      {
        id: 'disclaimers',
        title: t`Disclaimers`,
        blocks: [
          {
            kind: 'p',
            text: t`Cryptocurrency prices are volatile. Olympus provides no investment, tax or legal advice. The service is provided as it is and as available; we work to keep it running but do not promise it will be uninterrupted or error-free.`,
          },
        ],
      },
      {
        id: 'liability',
        title: t`Limitation of liability`,
        blocks: [
          {
            kind: 'p',
            text: t`To the extent the law allows, Olympus is not liable for indirect or consequential losses, or for losses caused by blockchain networks, third-party providers or information you entered incorrectly. Our total liability to you is limited to the value of the credits in your account. Nothing in these terms limits liability that cannot be limited by law.`,
          },
        ],
      },
      {
        id: 'termination',
        title: t`Suspension and closure`,
        blocks: [
          {
            kind: 'p',
            text: t`You can close your account at any time by opening a support ticket. We may suspend or close an account that breaks these terms or that the law requires us to act on. Where we can, we tell you why and give you the chance to respond.`,
          },
        ],
      },
      {
        id: 'changes',
        title: t`Changes to these terms`,
        blocks: [
          {
            kind: 'p',
            text: t`We may update these terms as the service changes. We update the date at the top and, for material changes, tell you in the app at least 14 days before they take effect. Continuing to use Olympus after that means you accept the new terms.`,
          },
        ],
      },
      {
        // Not "contact": the footer's contact section already uses that id on every page.
        id: 'contact-us',
        title: t`Contact us`,
        blocks: [{ kind: 'p', text: t`Questions about these terms: ${CONTACT_EMAIL}.` }],
      },
    ],
  };
}
