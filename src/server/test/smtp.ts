import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface Received {
  from: string;
  to: string[];
  raw: string;
  messageId: string;
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package): records every accepted message, and can
 * refuse messages to chosen recipients with a temporary error a number of times (or always).
 */
export class TestSmtp {
  readonly received: Received[] = [];
  private readonly refusals = new Map<string, number>();
  private server!: SMTPServer;
  /** Holds each message this long before accepting it (widens race windows). */
  delayMs = 0;
  port = 0;

  async start(port = 0): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        const left = this.refusals.get(address.address.toLowerCase());
        if (left !== undefined && left > 0) {
          this.refusals.set(address.address.toLowerCase(), left - 1);
          const err = new Error('Mailbox temporarily unavailable, try again later') as Error & { responseCode: number };
          err.responseCode = 451;
          return callback(err);
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const finish = () => {
            this.received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              messageId: /^Message-ID:\s*(\S+)/im.exec(raw)?.[1] ?? '',
            });
            callback();
          };
          if (this.delayMs) setTimeout(finish, this.delayMs);
          else finish();
        });
      },
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** The next `times` deliveries to `address` are refused with 451 (Infinity: always). */
  refuse(address: string, times: number): void {
    this.refusals.set(address.toLowerCase(), times);
  }

  to(address: string): Received[] {
    return this.received.filter((m) => m.to.some((t) => t.toLowerCase() === address.toLowerCase()));
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * The decoded text/plain part of a raw MIME message (quoted-printable, as nodemailer writes it), up to
 * the multipart boundary (a line of the text itself may start with "--").
 */
export function textPart(raw: string): string {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const escaped = boundary?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const end = escaped ? `\\r?\\n--${escaped}` : '\\r?\\n--';
  const match = new RegExp(`Content-Type: text\\/plain[^\\r\\n]*\\r?\\n(?:[^\\r\\n]+\\r?\\n)*\\r?\\n([\\s\\S]*?)${end}`, 'i').exec(raw);
  if (!match) throw new Error('no text part');
  return match[1]!.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The message's header fields (unfolded), by lower-case name; a repeated field keeps its first value. */
export function headerFields(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const fields: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    fields[name] ??= line.slice(colon + 1).trim();
  }
  return fields;
}
