import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/**
 * Sent when a closing account is restored (decision 0304): a security notice, like a password change,
 * so someone who restored an account that was not theirs to restore is seen by its owner.
 */
export function accountRestoredMail(
  tr: Translator,
  input: {
    username: string;
    when: string;
    ip: string;
    balanceCents: number;
    webhook: boolean;
    pausedCampaigns: number;
    reconnect: ('discord' | 'telegram')[];
    forgotUrl: string;
  },
): RenderedMail {
  const cameBack = [
    tr.t(/*i18n*/ 'your balance of {credits} credits', { credits: tr.cents(input.balanceCents) }),
    tr.t(/*i18n*/ 'your sign-in, API use and orders'),
  ];
  if (input.webhook) cameBack.push(tr.t(/*i18n*/ 'your webhook'));
  const toRedo: string[] = [];
  if (input.pausedCampaigns > 0) {
    toRedo.push(
      input.pausedCampaigns === 1
        ? tr.t(/*i18n*/ 'resume your ad campaign (paused when you closed the account)')
        : tr.t(/*i18n*/ 'resume your {count} ad campaigns (paused when you closed the account)', { count: input.pausedCampaigns }),
    );
  }
  for (const name of input.reconnect) {
    toRedo.push(tr.t(/*i18n*/ 'connect {service} again', { service: name === 'discord' ? 'Discord' : 'Telegram' }));
  }
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Your Olympus account was restored'),
      heading: tr.t(/*i18n*/ 'Your account was restored'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'Hello {username}, your Olympus account was restored: it is no longer closing and will not be erased.', {
            username: input.username,
          }),
        },
        {
          kind: 'facts',
          rows: [
            [tr.t(/*i18n*/ 'When'), input.when],
            [tr.t(/*i18n*/ 'From IP address'), input.ip],
          ],
        },
        { kind: 'p', text: tr.t(/*i18n*/ 'What came back: {list}.', { list: cameBack.join('; ') }) },
        ...(toRedo.length > 0
          ? [{ kind: 'p' as const, text: tr.t(/*i18n*/ 'What to do again yourself: {list}.', { list: toRedo.join('; ') }) }]
          : []),
        { kind: 'p', text: tr.t(/*i18n*/ 'If this was not you, reset your password now and contact support.') },
        { kind: 'button', label: tr.t(/*i18n*/ 'Reset my password'), url: input.forgotUrl },
      ],
      reason: tr.t(/*i18n*/ 'This is a security notice; it is always sent.'),
    },
    tr,
  );
}
