import { t } from '@lingui/core/macro';
import type { Job } from './types';

/** Open roles. Remove a role here when it is filled; the page shows an empty state when none are open. */
export function jobs(): readonly Job[] {
  return [
    {
      id: 'senior-backend-engineer-payments',
      title: t`Senior Backend Engineer, Payments`,
      team: t`Payments`,
      location: t`Remote (UTC−3 to UTC+3)`,
      type: t`Full-time`,
      summary: t`Own the path from a crypto deposit to a credit on the ledger: provider integrations, signed callbacks, reconciliation and the ledger itself.`,
      responsibilities: [
        t`Extend our NOWPayments integration and keep signed IPN handling and reconciliation airtight.`,
        t`Evolve the double-entry credits ledger so every payment and reward is credited exactly once.`,
        t`Design background jobs that survive restarts and run once across instances.`,
        t`Review incidents with support and turn each one into a test.`,
      ],
      requirements: [
        t`Five or more years building production services in TypeScript, Go or a similar language.`,
        t`Solid PostgreSQL: transactions, isolation levels, constraints that enforce business rules.`,
        t`Experience integrating a payment provider, including webhooks and idempotency.`,
        t`Clear written communication; we are a remote team and write things down.`,
      ],
      niceToHave: [
        t`Familiarity with on-chain confirmations, memos and destination tags.`,
        t`Experience with Fastify, Drizzle or pg-boss.`,
      ],
    },
    {
      id: 'frontend-engineer',
      title: t`Frontend Engineer`,
      team: t`Product`,
      location: t`Remote (Europe)`,
      type: t`Full-time`,
      summary: t`Build the screens people use to pay, swap and get help: fast on a phone, accessible with a keyboard and a screen reader, and honest about what is happening.`,
      responsibilities: [
        t`Ship features across the dashboard, payment flow and swap experience in React and TypeScript.`,
        t`Keep the app light: page-level code splitting and a tight budget for what the home page loads.`,
        t`Write tests that drive the real app in a browser, not just components in isolation.`,
        t`Work with design on clear loading, empty and error states.`,
      ],
      requirements: [
        t`Three or more years of professional React and TypeScript.`,
        t`A working knowledge of WCAG 2.2 and how to test with assistive technology.`,
        t`Comfort with plain CSS and the platform before reaching for a library.`,
      ],
      niceToHave: [t`Experience with Playwright.`, t`An interest in crypto payments or exchanges.`],
    },
    {
      id: 'customer-support-specialist',
      title: t`Customer Support Specialist`,
      team: t`Support`,
      location: t`Remote (UTC+1 to UTC+8)`,
      type: t`Full-time`,
      summary: t`Be the person who answers. Help customers with deposits, swaps, rewards and connected accounts through our ticket system, Discord and Telegram.`,
      responsibilities: [
        t`Answer support tickets from guests and customers with care and precision.`,
        t`Trace a payment or swap from its transaction hash to its credit and explain what happened.`,
        t`Spot patterns in tickets and bring them to the product team with evidence.`,
        t`Maintain our help replies and keep them accurate as the product changes.`,
      ],
      requirements: [
        t`Two or more years in customer support, ideally for a fintech or crypto product.`,
        t`Comfort reading a block explorer and explaining confirmations in plain words.`,
        t`Excellent written English; another language is a plus.`,
      ],
    },
    {
      id: 'security-engineer-contract',
      title: t`Security Engineer (contract)`,
      team: t`Platform`,
      location: t`Remote`,
      type: t`Contract`,
      summary: t`A three-month engagement to review our authentication, session handling and provider integrations, and to harden what you find.`,
      responsibilities: [
        t`Threat-model login, guest sessions, token refresh and account connections.`,
        t`Review signature checks for payment callbacks and OAuth flows.`,
        t`Pair with engineers on fixes and leave behind tests that keep them fixed.`,
      ],
      requirements: [
        t`A track record of application security reviews for web products handling money.`,
        t`Hands-on knowledge of OWASP ASVS, JWT pitfalls and OAuth 2.0.`,
      ],
    },
  ];
}

/** How to apply, shown under the list. */
export function howToApply(): string {
  return t`Send a short note about something you built that you are proud of, and a CV or a link to your work. We reply to every application within ten working days.`;
}
