import type { FastifyReply } from 'fastify';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/**
 * Sends a small self-contained page for a sandbox provider's screen (Discord consent, Telegram login).
 * No script at all; `formTargets` are the origins its form may end up at (the app's callback), which the
 * page's own Content-Security-Policy allows.
 */
export function sendSandboxPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
  formTargets: string[] = [],
  wide = false,
): FastifyReply {
  const formAction = ["'self'", ...formTargets].join(' ');
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    ).send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: ${wide ? 'start center' : 'center'}; background: #1e1f22; color: #f2f3f5; }
  main { width: min(${wide ? '960px' : '440px'}, calc(100vw - 2rem)); background: #2b2d31; border-radius: 12px; padding: 1.5rem; box-sizing: border-box; }
  h1 { font-size: 1.3rem; margin: 0 0 .5rem; }
  p, li { color: #c4c9d1; line-height: 1.5; }
  .badge { display: inline-block; font-size: .75rem; padding: .15rem .5rem; border-radius: 999px; background: #f0b232; color: #1e1f22; font-weight: 600; }
  label { display: block; margin: .9rem 0 .3rem; font-weight: 600; }
  input { width: 100%; box-sizing: border-box; padding: .6rem; border-radius: 6px; border: 1px solid #4e5058; background: #1e1f22; color: inherit; font-size: 1rem; }
  .check { display: flex; gap: .5rem; align-items: center; font-weight: 400; }
  .check input { width: auto; margin: 0; }
  .hint { font-size: .85rem; margin: .3rem 0 0; }
  .error { color: #fa777c; }
  .actions { display: flex; gap: .75rem; margin-top: 1.25rem; flex-wrap: wrap; }
  button, a.button { flex: 1; min-width: 8rem; padding: .7rem 1rem; border-radius: 6px; border: 0; font-size: 1rem; cursor: pointer; text-align: center; text-decoration: none; }
  .primary { background: #5865f2; color: #fff; }
  .secondary { background: #4e5058; color: #fff; }
  a { color: #00a8fc; }
  code, pre { overflow-wrap: anywhere; }
  pre { white-space: pre-wrap; background: #1e1f22; padding: .75rem; border-radius: 6px; }
  .messages { list-style: none; padding: 0; margin: 1rem 0; display: grid; gap: .75rem; }
  .message { background: #1e1f22; border-radius: 8px; padding: .75rem 1rem; }
  .message p { margin: .25rem 0; }
  .meta { font-size: .85rem; }
  .text { white-space: pre-wrap; overflow-wrap: anywhere; color: #f2f3f5; }
  summary { cursor: pointer; color: #c4c9d1; }
  button:focus-visible, a:focus-visible, input:focus-visible, summary:focus-visible { outline: 3px solid #00a8fc; outline-offset: 2px; }
</style>
</head>
<body>
<main${wide ? ' style="margin: 1.5rem 0"' : ''}>
<span class="badge">Sandbox</span>
${body}
</main>
</body>
</html>`);
}
