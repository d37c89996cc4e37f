import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * Facts about the company that several pages repeat. Content lives in the repository
 * (docs/decisions/0010-marketing-content-in-repository.md): edit it here and ship it with the code.
 */

/** Where visitors write to us. A deployment can override it at build time with VITE_CONTACT_EMAIL. */
export const CONTACT_EMAIL: string = import.meta.env.VITE_CONTACT_EMAIL || 'support@olympus.app';

export const PRIVACY_EMAIL = 'privacy@olympus.app';

export const CAREERS_EMAIL = 'careers@olympus.app';

export const COMPANY_NAME = 'Olympus';

/** Translated where it is shown (`i18n._(TAGLINE)`, decision 0326). */
export const TAGLINE = msg`Crypto credits, instant swaps and rewards, with support that answers.`;

export interface ContactTopic {
  value: string;
  /** Translated where it is shown (`i18n._(label)`). */
  label: MessageDescriptor;
}

/** Topics of the footer contact form; each becomes the subject line of the email. */
export const CONTACT_TOPICS: readonly ContactTopic[] = [
  { value: 'general', label: msg`General question` },
  { value: 'payments', label: msg`Payments and credits` },
  { value: 'exchange', label: msg`Swaps and rewards` },
  { value: 'partnerships', label: msg`Partnerships` },
  { value: 'privacy', label: msg`Privacy and my data` },
];
