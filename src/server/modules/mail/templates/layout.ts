import { english, type Translator } from '#server/i18n/translator.js';

/** Escapes text for HTML content and attribute values: everything a user typed goes through this. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** A block of a message: a paragraph, a labelled list of facts, a quoted excerpt, or a button with its link. */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'facts'; rows: Array<[label: string, value: string]> }
  | { kind: 'quote'; text: string }
  | { kind: 'button'; label: string; url: string };

export interface MailContent {
  subject: string;
  heading: string;
  blocks: Block[];
  /** Why this message was sent (shown small at the end). */
  reason: string;
  /** For optional notifications: a link that turns them off without signing in. */
  unsubscribeUrl?: string | undefined;
}

const p = (text: string): Block => ({ kind: 'p', text });
export const blocks = { p };

/**
 * One layout for every message: a text part and an HTML part saying the same thing, with no images
 * (readable with images blocked) and every link also written out in full. All strings are plain text
 * here and escaped for HTML in one place, so a username or a ticket message cannot inject markup. The
 * layout's own words are in the reader's language (`tr`, docs/decisions/0328), as the content should be.
 */
export function renderMail(content: MailContent, tr: Translator = english): RenderedMail {
  const copyAddress = tr.t(/*i18n*/ 'If the button does not work, copy this address into your browser:');
  const stop = tr.t(/*i18n*/ 'Stop these emails');
  const textParts: string[] = [content.heading, ''];
  const htmlParts: string[] = [];
  for (const block of content.blocks) {
    switch (block.kind) {
      case 'p':
        textParts.push(block.text, '');
        htmlParts.push(`<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(block.text)}</p>`);
        break;
      case 'facts':
        for (const [label, value] of block.rows) textParts.push(`${label}: ${value}`);
        textParts.push('');
        htmlParts.push(
          `<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">${block.rows
            .map(
              ([label, value]) =>
                `<tr><th scope="row" style="text-align:left;padding:4px 16px 4px 0;font-weight:600">${escapeHtml(label)}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`,
            )
            .join('')}</table>`,
        );
        break;
      case 'quote':
        textParts.push(...block.text.split('\n').map((line) => `> ${line}`), '');
        htmlParts.push(
          `<blockquote style="margin:0 0 16px;padding:8px 12px;border-left:4px solid #6366f1;background:#f4f4f5;white-space:pre-wrap">${escapeHtml(block.text)}</blockquote>`,
        );
        break;
      case 'button':
        textParts.push(`${block.label}: ${block.url}`, '');
        htmlParts.push(
          `<p style="margin:0 0 16px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#ffffff;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(block.label)}</a></p>` +
            `<p style="margin:0 0 16px;font-size:13px;color:#52525b">${escapeHtml(copyAddress)}<br><a href="${escapeHtml(block.url)}" style="color:#4338ca;word-break:break-all">${escapeHtml(block.url)}</a></p>`,
        );
        break;
    }
  }
  textParts.push('--', content.reason);
  if (content.unsubscribeUrl) textParts.push(`${stop}: ${content.unsubscribeUrl}`);
  textParts.push('Olympus');
  const footer =
    `<p style="margin:24px 0 0;font-size:12px;color:#71717a">${escapeHtml(content.reason)}` +
    (content.unsubscribeUrl ? ` <a href="${escapeHtml(content.unsubscribeUrl)}" style="color:#52525b">${escapeHtml(stop)}</a>.` : '') +
    `</p>`;
  const html = `<!doctype html>
<html lang="${tr.locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(content.subject)}</title></head>
<body style="margin:0;padding:24px;background:#ffffff;color:#18181b;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:15px">
<div style="max-width:560px;margin:0 auto">
<p style="margin:0 0 24px;font-weight:700;font-size:18px;color:#4338ca">Olympus</p>
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(content.heading)}</h1>
${htmlParts.join('\n')}
${footer}
</div>
</body>
</html>`;
  return { subject: content.subject, text: `${textParts.join('\n')}\n`, html };
}
