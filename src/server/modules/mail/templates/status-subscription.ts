import type { IncidentImpact, IncidentStatus } from '#shared/schemas/status.js';
import type { Translator } from '#server/i18n/translator.js';
import { renderMail, type RenderedMail } from './layout.js';

/** Double opt-in for status notices: nothing is sent to the address until this link is followed. */
export function statusConfirmMail(tr: Translator, input: { confirmUrl: string; statusUrl: string; validDays: number }): RenderedMail {
  return renderMail(
    {
      subject: tr.t(/*i18n*/ 'Confirm your Olympus status subscription'),
      heading: tr.t(/*i18n*/ 'Confirm your subscription'),
      blocks: [
        {
          kind: 'p',
          text: tr.t(
            /*i18n*/ 'Someone (hopefully you) asked to receive Olympus status notices at this address: new incidents, their updates and scheduled maintenance.',
          ),
        },
        { kind: 'button', label: tr.t(/*i18n*/ 'Confirm the subscription'), url: input.confirmUrl },
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'The link works for {days} days; after that, subscribe again to get a new one.', { days: input.validDays }),
        },
        {
          kind: 'p',
          text: tr.t(/*i18n*/ 'If it was not you, ignore this message: without confirmation nothing more is sent. The status page: {url}', {
            url: input.statusUrl,
          }),
        },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because this address was entered on the Olympus status page.'),
    },
    tr,
  );
}

/** A status notice's words, in one language: what the staff wrote (titles, messages) stays as written. */
export interface StatusNoticeText {
  subject: string;
  heading: string;
  facts: Array<[string, string]>;
  message: string;
}

/** A status notice: a new incident, an incident update or resolution, or new scheduled maintenance. */
export function statusNoticeMail(
  tr: Translator,
  input: StatusNoticeText & {
    statusUrl: string;
    unsubscribeUrl: string;
  },
): RenderedMail {
  return renderMail(
    {
      subject: input.subject,
      heading: input.heading,
      blocks: [
        { kind: 'facts', rows: input.facts },
        { kind: 'quote', text: input.message },
        { kind: 'button', label: tr.t(/*i18n*/ 'Open the status page'), url: input.statusUrl },
      ],
      reason: tr.t(/*i18n*/ 'You receive this because you subscribed to Olympus status notices.'),
      unsubscribeUrl: input.unsubscribeUrl,
    },
    tr,
  );
}

/** An incident's impact as a reader of `tr`'s language reads it; English keeps the value itself. */
export function impactName(tr: Translator, impact: IncidentImpact): string {
  switch (impact) {
    case 'minor':
      return tr.t(/*i18n*/ 'minor');
    case 'major':
      return tr.t(/*i18n*/ 'major');
    case 'critical':
      return tr.t(/*i18n*/ 'critical');
  }
}

/** An incident's status as a reader of `tr`'s language reads it; English keeps the value itself. */
export function incidentStatusName(tr: Translator, status: IncidentStatus): string {
  switch (status) {
    case 'investigating':
      return tr.t(/*i18n*/ 'investigating');
    case 'identified':
      return tr.t(/*i18n*/ 'identified');
    case 'monitoring':
      return tr.t(/*i18n*/ 'monitoring');
    case 'resolved':
      return tr.t(/*i18n*/ 'resolved');
  }
}

/** A moment in a status notice: English keeps "2026-12-07 14:05 UTC", others their own way (in UTC). */
export function noticeTime(tr: Translator, date: Date): string {
  return tr.locale === 'en' ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : tr.dateTime(date);
}
