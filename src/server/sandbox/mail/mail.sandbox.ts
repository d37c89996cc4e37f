import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponseSchema } from '#shared/schemas/common.js';
import { sandboxMailListResponseSchema, sandboxMailQuerySchema } from '#shared/schemas/mail.js';
import type { AppContext } from '#server/context.js';
import { notFound } from '#server/errors.js';
import { mailSandboxMessages, type MailSandboxMessageRow } from '#server/modules/mail/mail.tables.js';
import { escapeHtml } from '#server/modules/mail/templates/layout.js';

const LIST_LIMIT = 200;

function toDto(row: MailSandboxMessageRow) {
  return { id: row.id, to: row.to, subject: row.subject, text: row.text, html: row.html, createdAt: row.createdAt.toISOString() };
}

function page(reply: FastifyReply, title: string, body: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ).send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  :root { font-family: system-ui, sans-serif; color-scheme: light; }
  body { margin: 0; background: #f4f4f5; color: #18181b; }
  main { max-width: 960px; margin: 0 auto; padding: 1.5rem 1rem; }
  .badge { display: inline-block; font-size: .75rem; padding: .15rem .5rem; border-radius: 999px; background: #fbbf24; font-weight: 600; }
  table { width: 100%; border-collapse: collapse; background: #fff; }
  th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid #e4e4e7; vertical-align: top; }
  a { color: #3730a3; }
  a:focus-visible { outline: 3px solid #2563eb; outline-offset: 2px; }
  pre { white-space: pre-wrap; background: #fff; padding: 1rem; border: 1px solid #e4e4e7; overflow-wrap: anywhere; }
  iframe { width: 100%; height: 480px; border: 1px solid #e4e4e7; background: #fff; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
</style>
</head>
<body>
<main>
<span class="badge">Sandbox</span>
${body}
</main>
</body>
</html>`);
}

/**
 * The mail sandbox (no SMTP_URL, docs/product.md#runtime): what the app would have delivered, newest first,
 * as a page for people and as JSON for tests. Not mounted when real SMTP is configured (404 then).
 */
export function registerMailSandbox(app: FastifyInstance, ctx: AppContext): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const db = ctx.database.db;
  const tags = ['sandbox'];

  const list = (to: string | undefined) =>
    db
      .select()
      .from(mailSandboxMessages)
      .where(to ? sql`lower(${mailSandboxMessages.to}) = ${to.toLowerCase()}` : undefined)
      .orderBy(desc(mailSandboxMessages.createdAt), desc(mailSandboxMessages.id))
      .limit(LIST_LIMIT);

  const find = async (id: string) => {
    if (!z.uuid().safeParse(id).success) throw notFound('No such message');
    const [row] = await db.select().from(mailSandboxMessages).where(eq(mailSandboxMessages.id, id)).limit(1);
    if (!row) throw notFound('No such message');
    return row;
  };

  api.get(
    '/mail/messages',
    {
      schema: {
        hide: true,
        tags,
        summary: 'Mail sandbox: kept messages, newest first (all, or those to one address)',
        querystring: sandboxMailQuerySchema,
        response: { 200: sandboxMailListResponseSchema, 400: errorResponseSchema },
      },
    },
    async (request) => ({ messages: (await list(request.query.to || undefined)).map(toDto) }),
  );

  api.get('/mail', { schema: { hide: true, querystring: sandboxMailQuerySchema } }, async (request, reply) => {
    const to = request.query.to || undefined;
    const rows = await list(to);
    const items = rows
      .map(
        (row) =>
          `<tr><td><a href="/sandbox/mail/${row.id}">${escapeHtml(row.subject)}</a></td><td>${escapeHtml(row.to)}</td><td><time datetime="${row.createdAt.toISOString()}">${escapeHtml(row.createdAt.toISOString().replace('T', ' ').slice(0, 19))} UTC</time></td></tr>`,
      )
      .join('\n');
    return page(
      reply,
      'Mail sandbox',
      `<h1>Mail sandbox</h1>
<p>No SMTP server is configured (<code>SMTP_URL</code>), so every message Olympus sends is kept here instead, newest first.${to ? ` Showing mail to <strong>${escapeHtml(to)}</strong> (<a href="/sandbox/mail">show all</a>).` : ''}</p>
${rows.length ? `<table aria-label="Messages"><thead><tr><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Received</th></tr></thead><tbody>${items}</tbody></table>` : '<p>No messages yet.</p>'}`,
    );
  });

  api.get('/mail/:id', { schema: { hide: true, params: z.object({ id: z.string().max(100) }) } }, async (request, reply) => {
    const row = await find(request.params.id);
    return page(
      reply,
      row.subject,
      `<p><a href="/sandbox/mail">← All messages</a></p>
<h1>${escapeHtml(row.subject)}</h1>
<dl><dt>From</dt><dd>${escapeHtml(row.from)}</dd><dt>To</dt><dd>${escapeHtml(row.to)}</dd><dt>Received</dt><dd>${escapeHtml(row.createdAt.toISOString())}</dd>${Object.entries(
        row.headers,
      )
        .map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`)
        .join('')}</dl>
<h2>HTML part</h2>
<iframe title="HTML part of the message" src="/sandbox/mail/${row.id}/html" sandbox="allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation"></iframe>
<h2>Text part</h2>
<pre>${escapeHtml(row.text)}</pre>`,
    );
  });

  api.get('/mail/:id/html', { schema: { hide: true, params: z.object({ id: z.string().max(100) }) } }, async (request, reply) => {
    const row = await find(request.params.id);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'SAMEORIGIN')
      .header(
        'content-security-policy',
        "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'",
      )
      .send(row.html);
  });
}
