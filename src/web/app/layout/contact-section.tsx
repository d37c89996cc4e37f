import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import { Form, useForm } from '#web/components/ui/use-form';
import { RichText, useLocale } from '#web/features/language';
import { CONTACT_EMAIL, CONTACT_TOPICS } from '#web/features/marketing/content/site';

/** A mailto: link with the subject and body filled in (encoded so any text survives). */
export function buildMailto(to: string, subject: string, body: string): string {
  return `mailto:${to}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

/**
 * The footer's contact section. There is no contact API: the short form composes an email in the
 * visitor's own mail app, so the message and any reply stay in their mailbox. Account questions are
 * better served by a support ticket from the dashboard, which the text says.
 */
export function ContactSection() {
  useLocale();
  const formId = useId();
  const [sent, setSent] = useState(false);

  const form = useForm({
    action: () => {
      const element = form.formRef.current;
      if (!element) return;
      const data = new FormData(element);
      const topic = CONTACT_TOPICS.find((item) => item.value === data.get('topic'));
      const subject = topic ? i18n._(topic.label) : t`Question`;
      const name = String(data.get('name') ?? '').trim();
      const message = String(data.get('message') ?? '').trim();
      const body = name ? `${message}\n\n— ${name}` : message;
      window.location.href = buildMailto(CONTACT_EMAIL, `[Olympus] ${subject}`, body);
      setSent(true);
    },
  });

  return (
    <section id="contact" className="contact" aria-labelledby={`${formId}-title`}>
      <h2 id={`${formId}-title`} className="footer-heading">
        {t`Contact`}
      </h2>
      <p className="muted">
        <RichText
          message={t`Write to <0>${CONTACT_EMAIL}</0>. For anything about your account or a payment, open a support ticket from your dashboard: it reaches the same team with your details attached.`}
          elements={[<a href={`mailto:${CONTACT_EMAIL}`} />]}
        />
      </p>
      {/* The browser's own check (the message is required): there is nothing else to check. */}
      <Form form={form} noValidate={false} className="contact-form" aria-describedby={`${formId}-note`}>
        <div className="field">
          <label htmlFor={`${formId}-name`}>{t`Your name (optional)`}</label>
          <input id={`${formId}-name`} name="name" type="text" autoComplete="name" maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor={`${formId}-topic`}>{t`Topic`}</label>
          <select id={`${formId}-topic`} name="topic" defaultValue={CONTACT_TOPICS[0]?.value}>
            {CONTACT_TOPICS.map((topic) => (
              <option key={topic.value} value={topic.value}>
                {i18n._(topic.label)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${formId}-message`}>{t`Message`}</label>
          <textarea id={`${formId}-message`} name="message" rows={3} required maxLength={2000} />
        </div>
        <button type="submit" className="btn btn-secondary">
          {t`Write email`}
        </button>
        <p id={`${formId}-note`} className="field-note" role="status">
          {sent
            ? t`Your email app should now open with the message. If it did not, write to ${CONTACT_EMAIL} directly.`
            : t`Opens your email app with this message ready to send.`}
        </p>
      </Form>
    </section>
  );
}
