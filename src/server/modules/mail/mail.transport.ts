import nodemailer from 'nodemailer';
import type { Db } from '#server/db/client.js';
import { mailSandboxMessages } from './mail.tables.js';

export interface OutgoingMail {
  /** The outbox id: also the Message-ID's local part, so a receiver can spot a duplicate. */
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** Real delivery over SMTP (SMTP_URL), one pooled nodemailer transport per app instance. */
export function smtpTransport(smtpUrl: string, publicHost: string): MailTransport {
  const url = new URL(smtpUrl);
  url.searchParams.set('pool', 'true');
  url.searchParams.set('maxConnections', '2');
  url.searchParams.set('connectionTimeout', '10000');
  url.searchParams.set('greetingTimeout', '10000');
  url.searchParams.set('socketTimeout', '30000');
  const transport = nodemailer.createTransport(url.toString());
  return {
    async send(mail) {
      const info = (await transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        headers: mail.headers,
        messageId: `<${mail.id}@${publicHost}>`,
      })) as { messageId?: string };
      return { messageId: info.messageId ?? `<${mail.id}@${publicHost}>` };
    },
    close: () => transport.close(),
  };
}

/**
 * The mail sandbox (no SMTP_URL): the message is kept in the database instead, shown at /sandbox/mail.
 * Keyed by the outbox id, so a repeated delivery is stored once.
 */
export function sandboxTransport(db: Db): MailTransport {
  return {
    async send(mail) {
      await db
        .insert(mailSandboxMessages)
        .values({
          messageId: mail.id,
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers,
        })
        .onConflictDoNothing({ target: mailSandboxMessages.messageId });
      return { messageId: `<${mail.id}@sandbox>` };
    },
    close: () => {},
  };
}
