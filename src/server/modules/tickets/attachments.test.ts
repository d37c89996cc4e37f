import { readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { ENGINES, startTestApp, type TestApp } from '#server/test/test-app.js';
import { detectType, hidesActiveMarkup, looksLikeMarkup, safeFilename } from './attachments.js';

const NEW_TICKET = { subject: 'Screenshot of the error', category: 'technical', priority: 'normal', message: 'See the attached file.' };

// A real 1x1 PNG, a minimal PDF, a GIF and a WebP header.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>');
const HTML = Buffer.from('\n  <!DOCTYPE html><html><body><script>fetch("/api/users")</script></body></html>');

describe('attachment checks', () => {
  it('detects types by content only', () => {
    expect(detectType(PNG)).toBe('image/png');
    expect(detectType(PDF)).toBe('application/pdf');
    expect(detectType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('image/jpeg');
    expect(detectType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
    expect(detectType(Buffer.concat([Buffer.from('RIFF'), Buffer.from([1, 0, 0, 0]), Buffer.from('WEBPVP8 ')]))).toBe('image/webp');
    expect(detectType(SVG)).toBeNull();
    expect(detectType(Buffer.from('RIFF\x01\x00\x00\x00WAVEfmt ', 'latin1'))).toBeNull();
  });

  it('recognises markup, also behind a BOM, white space or UTF-16', () => {
    expect(looksLikeMarkup(SVG)).toBe(true);
    expect(looksLikeMarkup(HTML)).toBe(true);
    expect(looksLikeMarkup(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<?xml version="1.0"?><svg/>')]))).toBe(true);
    expect(looksLikeMarkup(Buffer.from('\ufeff<svg onload=alert(1)>', 'utf16le'))).toBe(true);
    expect(looksLikeMarkup(Buffer.from('just some text'))).toBe(false);
  });

  it('does not mistake XML metadata in an image or PDF for active markup', () => {
    const xmp = Buffer.concat([PDF, Buffer.from('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>')]);
    expect(hidesActiveMarkup(xmp)).toBe(false);
    expect(hidesActiveMarkup(Buffer.concat([PNG, Buffer.from('<html><script>x</script>')]))).toBe(true);
  });

  it('makes safe file names with the detected extension', () => {
    expect(safeFilename('../../etc/passwd', 'image/png')).toBe('passwd.png');
    expect(safeFilename('C:\\Users\\me\\shot "1".html', 'image/png')).toBe('shot _1_.png');
    expect(safeFilename('résumé.svg', 'application/pdf')).toBe('resume.pdf');
    expect(safeFilename('...', 'image/gif')).toBe('attachment.gif');
  });
});

describe.each(ENGINES)('ticket attachments on %s', (engine) => {
  let t: TestApp;
  let support: { token: string; userId: string };
  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: '0' });
    support = await registerUser(t);
    await setRole(t.database.db, support.userId, 'support');
  });
  afterAll(async () => {
    await t?.close();
    if (t) await rm(t.config.attachmentsDir, { recursive: true, force: true });
  });

  async function upload(path: string, body: Buffer, options: { token: string; filename?: string; type?: string; headers?: Record<string, string> }) {
    const query = new URLSearchParams({ filename: options.filename ?? 'file.png' });
    const res = await fetch(`${t.url}${path}?${query.toString()}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': options.type ?? 'application/octet-stream', ...(options.headers ?? {}) },
      body: new Uint8Array(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : {} };
  }

  async function download(path: string, token: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }

  async function stored(): Promise<{ rows: number; files: number }> {
    const rows = (await t.database.pool.query('SELECT count(*)::int AS n FROM ticket_attachments')).rows[0].n as number;
    const files = (await readdir(t.config.attachmentsDir).catch(() => [])).length;
    return { rows, files };
  }

  async function userTicket() {
    const user = await registerUser(t);
    const created = await call(t, 'POST', '/api/tickets', { token: user.token, body: NEW_TICKET });
    return { user, id: created.json.ticket._id as string };
  }

  it('stores a PNG outside the database under a random name and serves it only to the owner and staff, with safe headers', async () => {
    const { user, id } = await userTicket();
    const res = await upload(`/api/tickets/${id}/attachments`, PNG, { token: user.token, filename: '../../secret/screen shot.PNG', type: 'text/html' });
    expect(res.status).toBe(201);
    const last = res.json.ticket.messages.at(-1);
    expect(last).toMatchObject({ author: 'requester', body: 'Attached screen shot.png', attachments: [{ filename: 'screen shot.png', contentType: 'image/png', size: PNG.length }] });
    const fileId = last.attachments[0]._id as string;
    const [row] = (await t.database.pool.query('SELECT storage_key FROM ticket_attachments WHERE id = $1', [fileId])).rows;
    expect(row.storage_key).toMatch(/^[0-9a-f]{32}$/);
    expect(await readdir(t.config.attachmentsDir)).toContain(row.storage_key);

    const own = await download(`/api/tickets/${id}/attachments/${fileId}`, user.token);
    expect(own.status).toBe(200);
    expect(own.bytes.equals(PNG)).toBe(true);
    expect(own.headers.get('content-type')).toBe('image/png');
    expect(own.headers.get('x-content-type-options')).toBe('nosniff');
    expect(own.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(own.headers.get('content-security-policy')).toContain('sandbox');
    expect(own.headers.get('content-disposition')).toBe('inline; filename="screen shot.png"');

    const staff = await download(`/api/staff/tickets/${id}/attachments/${fileId}`, support.token);
    expect(staff.status).toBe(200);
    expect(staff.bytes.equals(PNG)).toBe(true);

    const other = await registerUser(t);
    expect((await download(`/api/tickets/${id}/attachments/${fileId}`, other.token)).status).toBe(404);
    expect((await download(`/api/staff/tickets/${id}/attachments/${fileId}`, other.token)).status).toBe(403);
    const guest = await startGuest(t);
    expect((await download(`/api/tickets/guest/${id}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(404);
    // The right file id on the wrong ticket is not found either.
    const { user: u2, id: id2 } = await userTicket();
    expect((await download(`/api/tickets/${id2}/attachments/${fileId}`, u2.token)).status).toBe(404);
  });

  it('serves a PDF as a download with its detected type, whatever type and name were declared', async () => {
    const { user, id } = await userTicket();
    const res = await upload(`/api/tickets/${id}/attachments`, PDF, { token: user.token, filename: 'invoice.png', type: 'image/png' });
    expect(res.status).toBe(201);
    const file = res.json.ticket.messages.at(-1).attachments[0];
    expect(file).toMatchObject({ filename: 'invoice.pdf', contentType: 'application/pdf' });
    const got = await download(`/api/staff/tickets/${id}/attachments/${file._id}`, support.token);
    expect(got.headers.get('content-type')).toBe('application/pdf');
    expect(got.headers.get('content-disposition')).toBe('attachment; filename="invoice.pdf"');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses disguised SVG and HTML, other types, empty and oversized files, storing nothing', async () => {
    const { user, id } = await userTicket();
    const before = await stored();
    const svg = await upload(`/api/tickets/${id}/attachments`, SVG, { token: user.token, filename: 'cat.png', type: 'image/png' });
    expect(svg.status).toBe(415);
    expect(svg.json.code).toBe('ATTACHMENT_MARKUP_REFUSED');
    expect(svg.json.error).toMatch(/HTML, SVG/);
    const html = await upload(`/api/tickets/${id}/attachments`, HTML, { token: user.token, filename: 'photo.jpg', type: 'image/jpeg' });
    expect(html.json.code).toBe('ATTACHMENT_MARKUP_REFUSED');
    // A polyglot: a real PNG header with an SVG right behind it.
    const polyglot = await upload(`/api/tickets/${id}/attachments`, Buffer.concat([PNG.subarray(0, 33), SVG]), { token: user.token, filename: 'p.png' });
    expect(polyglot.status).toBe(415);
    expect(polyglot.json.code).toBe('ATTACHMENT_MARKUP_REFUSED');
    const text = await upload(`/api/tickets/${id}/attachments`, Buffer.from('hello'), { token: user.token, filename: 'a.pdf', type: 'application/pdf' });
    expect(text.status).toBe(415);
    expect(text.json.code).toBe('ATTACHMENT_TYPE_REFUSED');
    // A JSON content type does not turn the upload into a JSON body.
    const json = await upload(`/api/tickets/${id}/attachments`, Buffer.from('{"a":1}'), { token: user.token, type: 'application/json' });
    expect(json.status).toBe(415);
    expect((await upload(`/api/tickets/${id}/attachments`, Buffer.alloc(0), { token: user.token })).status).toBe(400);
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const tooBig = await upload(`/api/tickets/${id}/attachments`, big, { token: user.token });
    // Refused while it streams in (every too-large body is a 413 BODY_TOO_LARGE, decision 0212).
    expect(tooBig.status).toBe(413);
    expect(tooBig.json.code).toBe('BODY_TOO_LARGE');
    // Staff uploads follow the same rules.
    expect((await upload(`/api/staff/tickets/${id}/attachments`, SVG, { token: support.token, filename: 'x.png' })).status).toBe(415);
    // Someone else's ticket: 404 before the file is even looked at.
    const other = await registerUser(t);
    expect((await upload(`/api/tickets/${id}/attachments`, PNG, { token: other.token })).status).toBe(404);
    expect(await stored()).toEqual(before);
    expect((await call(t, 'GET', `/api/tickets/${id}`, { token: user.token })).json.ticket.messageCount).toBe(1);
  });

  it('stops a chunked upload without Content-Length at 10 MB', async () => {
    const { user, id } = await userTicket();
    const before = await stored();
    let sent = 0;
    const chunk = Buffer.alloc(1024 * 1024, 0x41);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new Uint8Array(PNG));
        if (sent >= 12) return controller.close();
        sent += 1;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const res = await fetch(`${t.url}/api/tickets/${id}/attachments?filename=big.png`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'image/png' },
      body,
      duplex: 'half',
    } as RequestInit).catch(() => null);
    // Either the 413 arrives, or the server cut the connection mid-stream: never a stored file.
    if (res) expect(res.status).toBe(413);
    expect(await stored()).toEqual(before);
  }, 60_000);

  it('accepts exactly 10 MB', async () => {
    const { user, id } = await userTicket();
    const exact = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024 - PNG.length)]);
    expect((await upload(`/api/tickets/${id}/attachments`, exact, { token: user.token })).status).toBe(201);
  }, 60_000);

  it('keeps the JSON routes at their own body limit', async () => {
    const { user, id } = await userTicket();
    const res = await call(t, 'POST', `/api/tickets/${id}/messages`, { token: user.token, body: { message: 'x'.repeat(100_000) } });
    expect(res.status).toBe(413);
    expect(res.json.code).toBe('BODY_TOO_LARGE');
  });

  it('lets guests attach, lets staff answer with a file (a first response), and moves files with a merge', async () => {
    const guest = await startGuest(t);
    const opts = { token: guest.token, headers: guestHeaders(guest) };
    const created = await call(t, 'POST', '/api/tickets/guest', { ...opts, body: NEW_TICKET });
    const id = created.json.ticket._id as string;
    const up = await upload(`/api/tickets/guest/${id}/attachments`, PNG, { ...opts, filename: 'g.png' });
    expect(up.status).toBe(201);
    const fileId = up.json.ticket.messages.at(-1).attachments[0]._id as string;
    expect((await download(`/api/tickets/guest/${id}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(200);

    const staffUp = await upload(`/api/staff/tickets/${id}/attachments`, PDF, { token: support.token, filename: 'guide.pdf' });
    expect(staffUp.status).toBe(201);
    expect(staffUp.json.ticket.firstResponseAt).not.toBeNull();
    expect(staffUp.json.ticket.messages.at(-1)).toMatchObject({ author: 'staff', kind: 'reply', attachments: [{ filename: 'guide.pdf' }] });

    const target = await call(t, 'POST', '/api/tickets/guest', { ...opts, body: { ...NEW_TICKET, subject: 'Original' } });
    const targetId = target.json.ticket._id as string;
    expect((await call(t, 'POST', `/api/staff/tickets/${targetId}/merge`, { token: support.token, body: { sourceId: id } })).status).toBe(200);
    expect((await download(`/api/tickets/guest/${targetId}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(200);
    expect((await download(`/api/tickets/guest/${id}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(404);
  });
});
