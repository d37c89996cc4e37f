import type { Job } from './types';

/** Open roles. Remove a role here when it is filled; the page shows an empty state when none are open. */
export const JOBS: readonly Job[] = [
  {
    id: 'senior-backend-engineer-payments',
    title: 'Senior Backend Engineer, Payments',
    team: 'Payments',
    location: 'Remote (UTC−3 to UTC+3)',
    type: 'Full-time',
    summary:
      'Own the path from a crypto deposit to a credit on the ledger: provider integrations, signed callbacks, reconciliation and the ledger itself.',
    responsibilities: [
      'Extend our NOWPayments integration and keep signed IPN handling and reconciliation airtight.',
      'Evolve the double-entry credits ledger so every payment and reward is credited exactly once.',
      'Design background jobs that survive restarts and run once across instances.',
      'Review incidents with support and turn each one into a test.',
    ],
    requirements: [
      'Five or more years building production services in TypeScript, Go or a similar language.',
      'Solid PostgreSQL: transactions, isolation levels, constraints that enforce business rules.',
      'Experience integrating a payment provider, including webhooks and idempotency.',
      'Clear written communication; we are a remote team and write things down.',
    ],
    niceToHave: ['Familiarity with on-chain confirmations, memos and destination tags.', 'Experience with Fastify, Drizzle or pg-boss.'],
  },
  {
    id: 'frontend-engineer',
    title: 'Frontend Engineer',
    team: 'Product',
    location: 'Remote (Europe)',
    type: 'Full-time',
    summary:
      'Build the screens people use to pay, swap and get help: fast on a phone, accessible with a keyboard and a screen reader, and honest about what is happening.',
    responsibilities: [
      'Ship features across the dashboard, payment flow and swap experience in React and TypeScript.',
      'Keep the app light: page-level code splitting and a tight budget for what the home page loads.',
      'Write tests that drive the real app in a browser, not just components in isolation.',
      'Work with design on clear loading, empty and error states.',
    ],
    requirements: [
      'Three or more years of professional React and TypeScript.',
      'A working knowledge of WCAG 2.2 and how to test with assistive technology.',
      'Comfort with plain CSS and the platform before reaching for a library.',
    ],
    niceToHave: ['Experience with Playwright.', 'An interest in crypto payments or exchanges.'],
  },
  {
    id: 'customer-support-specialist',
    title: 'Customer Support Specialist',
    team: 'Support',
    location: 'Remote (UTC+1 to UTC+8)',
    type: 'Full-time',
    summary:
      'Be the person who answers. Help customers with deposits, swaps, rewards and connected accounts through our ticket system, Discord and Telegram.',
    responsibilities: [
      'Answer support tickets from guests and customers with care and precision.',
      'Trace a payment or swap from its transaction hash to its credit and explain what happened.',
      'Spot patterns in tickets and bring them to the product team with evidence.',
      'Maintain our help replies and keep them accurate as the product changes.',
    ],
    requirements: [
      'Two or more years in customer support, ideally for a fintech or crypto product.',
      'Comfort reading a block explorer and explaining confirmations in plain words.',
      'Excellent written English; another language is a plus.',
    ],
  },
  {
    id: 'security-engineer-contract',
    title: 'Security Engineer (contract)',
    team: 'Platform',
    location: 'Remote',
    type: 'Contract',
    summary:
      'A three-month engagement to review our authentication, session handling and provider integrations, and to harden what you find.',
    responsibilities: [
      'Threat-model login, guest sessions, token refresh and account connections.',
      'Review signature checks for payment callbacks and OAuth flows.',
      'Pair with engineers on fixes and leave behind tests that keep them fixed.',
    ],
    requirements: [
      'A track record of application security reviews for web products handling money.',
      'Hands-on knowledge of OWASP ASVS, JWT pitfalls and OAuth 2.0.',
    ],
  },
];

/** How to apply, shown under the list. */
export const HOW_TO_APPLY =
  'Send a short note about something you built that you are proud of, and a CV or a link to your work. We reply to every application within ten working days.';
