import { readdir, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRole } from '#server/modules/users/users.service.js';
import { call, guestHeaders, registerUser, startGuest } from '#server/test/http.js';
import { enginesFor, startTestApp, type TestApp } from '#server/test/test-app.js';
import { objectStream, plainPdf, streamObject } from '#server/test/fixtures/pdf-files.js';
import { checkUpload, detectType, hidesActiveMarkup, looksLikeMarkup, pdfProblem, safeFilename } from './attachments.js';

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
    const xmp = Buffer.concat([
      PDF,
      Buffer.from('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'),
    ]);
    expect(hidesActiveMarkup(xmp)).toBe(false);
    expect(hidesActiveMarkup(Buffer.concat([PNG, Buffer.from('<html><script>x</script>')]))).toBe(true);
  });

  it('reads the whole file for markup, not only its first KiB', () => {
    const padding = Buffer.alloc(4096, 0x20);
    // A "text" file with its SVG after 4 KiB of spaces, and a PNG header with an HTML page 4 KiB later.
    expect(looksLikeMarkup(Buffer.concat([Buffer.from('notes\n'), padding, SVG]))).toBe(true);
    const polyglot = Buffer.concat([PNG, padding, HTML]);
    expect(hidesActiveMarkup(polyglot)).toBe(true);
    expect(() => checkUpload(polyglot, 'cat.png')).toThrow(expect.objectContaining({ status: 415, code: 'ATTACHMENT_MARKUP_REFUSED' }));
    expect(() => checkUpload(Buffer.concat([PDF, padding, Buffer.from('<iframe src="/api/users">')]), 'a.pdf')).toThrow(
      expect.objectContaining({ code: 'ATTACHMENT_MARKUP_REFUSED' }),
    );
    expect(() => checkUpload(Buffer.concat([Buffer.from('notes\n'), padding, SVG]), 'a.png')).toThrow(
      expect.objectContaining({ code: 'ATTACHMENT_MARKUP_REFUSED' }),
    );
  });

  describe('PDFs', () => {
    const refusal = (file: Buffer) => {
      try {
        checkUpload(file, 'document.pdf');
        return null;
      } catch (err) {
        return err as { status: number; code: string; message: string };
      }
    };
    const jsAction = '<< /Type /Action /S /JavaScript /JS (app.alert\\(document.cookie\\)) >>';

    it('accepts a plain PDF, with compressed content and a compressed object stream of ordinary objects', () => {
      expect(refusal(plainPdf())).toBeNull();
      expect(checkUpload(plainPdf(), 'receipt.pdf')).toMatchObject({ contentType: 'application/pdf', filename: 'receipt.pdf' });
      const withObjStm = plainPdf([
        objectStream(['<< /Title (Receipt) /Author (Olympus) >>', '<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>'], 7),
      ]);
      expect(refusal(withObjStm)).toBeNull();
      // Links and outlines are actions too, and harmless: a URI or a page destination is accepted.
      expect(refusal(plainPdf(['<< /Type /Action /S /URI /URI (https://example.com/help) >>', '[3 0 R /Fit]']))).toBeNull();
    });

    it('accepts a PDF with a large binary stream whatever bytes it holds (no chance match of a name)', () => {
      // 2 MB of pseudo-random bytes (a fixed seed: the same file every run), like compressed images.
      let x = 0x2545f491;
      const noise = Buffer.alloc(2 * 1024 * 1024);
      for (let i = 0; i < noise.length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        noise[i] = x & 0xff;
      }
      expect(
        refusal(
          plainPdf([
            streamObject(
              '/Type /XObject /Subtype /Image /Width 1024 /Height 682 /BitsPerComponent 8 /ColorSpace /DeviceRGB /Filter /DCTDecode',
              noise,
            ),
          ]),
        ),
      ).toBeNull();
    });

    it('refuses JavaScript, OpenAction, Launch and embedded files, naming what it found', () => {
      const cases: Array<[string, Buffer, RegExp]> = [
        ['JavaScript action', plainPdf([jsAction]), /JavaScript/],
        ['document JavaScript', plainPdf(['<< /Names [(init) 7 0 R] >>', jsAction], '/Names << /JavaScript 6 0 R >> '), /JavaScript/],
        [
          'a bare /JS with a stream',
          plainPdf(['<< /S /Unknown /JS 7 0 R >>', streamObject('', Buffer.from('app.alert(1)'))]),
          /JavaScript/,
        ],
        ['OpenAction', plainPdf(['<< /S /GoTo /D [3 0 R /Fit] >>'], '/OpenAction 6 0 R '), /OpenAction/],
        ['Launch', plainPdf(['<< /Type /Action /S /Launch /F (calc.exe) >>']), /Launch/],
        [
          'EmbeddedFiles',
          plainPdf(
            [
              '<< /Names [(a.exe) 7 0 R] >>',
              '<< /Type /Filespec /F (a.exe) /EF << /F 8 0 R >> >>',
              streamObject('/Type /EmbeddedFile', Buffer.from('MZ')),
            ],
            '/Names << /EmbeddedFiles 6 0 R >> ',
          ),
          /embedded files/,
        ],
        ['EmbeddedFile', plainPdf([streamObject('/Type /EmbeddedFile', Buffer.from('MZ'))]), /embedded files/],
      ];
      for (const [name, file, message] of cases) {
        const err = refusal(file);
        expect(err, name).toMatchObject({ status: 415, code: 'ATTACHMENT_PDF_ACTIVE_CONTENT' });
        expect(err!.message, name).toMatch(message);
        expect(err!.message, name).toMatch(/not accepted/);
        // What was found, by kind, for the web to word in the reader's language.
        const kind = { JavaScript: 'JavaScript', OpenAction: 'OpenAction', Launch: 'Launch', 'embedded files': 'EmbeddedFile' }[
          message.source
        ];
        expect((err!.details as { found: string[] }).found, name).toContain(kind);
      }
    });

    it('refuses the names written with #xx escapes or ended by a NUL', () => {
      for (const file of [
        plainPdf(['<< /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>']),
        plainPdf(['<< /S /#4A#61#76#61#53#63#72#69#70#74 >>']),
        plainPdf(['<< /S /GoTo /D [3 0 R /Fit] >>'], '/Open#41ction 6 0 R '),
        plainPdf(['<< /S /L#61unch /F (calc.exe) >>']),
        plainPdf([streamObject('/Type /Embedded#46ile', Buffer.from('MZ'))]),
        plainPdf(['<< /S /Unknown /JS\0(app.alert\\(1\\)) >>']),
      ]) {
        expect(refusal(file)).toMatchObject({ status: 415, code: 'ATTACHMENT_PDF_ACTIVE_CONTENT' });
      }
    });

    it('inflates compressed object streams and refuses what hides there, also without /Type /ObjStm', () => {
      const hidden = plainPdf([objectStream([jsAction], 7)]);
      expect(pdfProblem(hidden)).toEqual({ kind: 'active', found: expect.arrayContaining(['JavaScript', 'JS']) });
      expect(refusal(hidden)).toMatchObject({ code: 'ATTACHMENT_PDF_ACTIVE_CONTENT' });
      // Nothing of it shows in the raw bytes:
      expect(hidden.toString('latin1')).not.toMatch(/JavaScript/);
      const untyped = plainPdf([objectStream(['<< /S /Launch /F (calc.exe) >>'], 7, { typeEntry: '' })]);
      expect(refusal(untyped)?.message).toMatch(/Launch/);
      const escapedType = plainPdf([objectStream(['<< /Type /Catalog /Open#41ction 3 0 R >>'], 7, { typeEntry: '/Type /Obj#53tm' })]);
      expect(refusal(escapedType)?.message).toMatch(/OpenAction/);
    });

    it('refuses a PDF whose object streams cannot be inflated here', () => {
      const hex = plainPdf([
        objectStream(['<< /Title (x) >>'], 7, {
          encode: (raw) => ({ filter: '/Filter /ASCIIHexDecode', data: Buffer.from(`${raw.toString('hex')}>`) }),
        }),
      ]);
      const broken = plainPdf([
        objectStream(['<< /Title (x) >>'], 7, { encode: (raw) => ({ filter: '/Filter /FlateDecode', data: raw }) }),
      ]);
      const chained = plainPdf([
        objectStream(['<< /Title (x) >>'], 7, { encode: (raw) => ({ filter: '/Filter [/FlateDecode /ASCII85Decode]', data: raw }) }),
      ]);
      const indirect = plainPdf([objectStream(['<< /Title (x) >>'], 7, { encode: (raw) => ({ filter: '/Filter 9 0 R', data: raw }) })]);
      for (const file of [hex, broken, chained, indirect]) {
        expect(refusal(file)).toMatchObject({ status: 415, code: 'ATTACHMENT_PDF_UNINSPECTABLE' });
      }
    });
  });

  it('makes safe file names with the detected extension', () => {
    expect(safeFilename('../../etc/passwd', 'image/png')).toBe('passwd.png');
    expect(safeFilename('C:\\Users\\me\\shot "1".html', 'image/png')).toBe('shot _1_.png');
    expect(safeFilename('résumé.svg', 'application/pdf')).toBe('resume.pdf');
    expect(safeFilename('...', 'image/gif')).toBe('attachment.gif');
  });
});

describe.each(enginesFor('logic'))('ticket attachments on %s', (engine) => {
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

  async function upload(
    path: string,
    body: Buffer,
    options: { token: string; filename?: string; type?: string; headers?: Record<string, string> },
  ) {
    const query = new URLSearchParams({ filename: options.filename ?? 'file.png' });
    const res = await fetch(`${t.url}${path}?${query.toString()}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.token}`,
        'content-type': options.type ?? 'application/octet-stream',
        ...(options.headers ?? {}),
      },
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
    const res = await upload(`/api/tickets/${id}/attachments`, PNG, {
      token: user.token,
      filename: '../../secret/screen shot.PNG',
      type: 'text/html',
    });
    expect(res.status).toBe(201);
    const last = res.json.ticket.messages.at(-1);
    expect(last).toMatchObject({
      author: 'requester',
      body: 'Attached screen shot.png',
      attachments: [{ filename: 'screen shot.png', contentType: 'image/png', size: PNG.length }],
    });
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
    const polyglot = await upload(`/api/tickets/${id}/attachments`, Buffer.concat([PNG.subarray(0, 33), SVG]), {
      token: user.token,
      filename: 'p.png',
    });
    expect(polyglot.status).toBe(415);
    expect(polyglot.json.code).toBe('ATTACHMENT_MARKUP_REFUSED');
    const text = await upload(`/api/tickets/${id}/attachments`, Buffer.from('hello'), {
      token: user.token,
      filename: 'a.pdf',
      type: 'application/pdf',
    });
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

  it('refuses over HTTP a PDF with JavaScript in a compressed object stream and markup past the first KiB, storing nothing', async () => {
    const { user, id } = await userTicket();
    const before = await stored();
    const js = await upload(
      `/api/tickets/${id}/attachments`,
      plainPdf([objectStream(['<< /S /JavaScript /JS (app.alert\\(1\\)) >>'], 7)]),
      { token: user.token, filename: 'invoice.pdf' },
    );
    expect(js.status).toBe(415);
    expect(js.json).toMatchObject({ code: 'ATTACHMENT_PDF_ACTIVE_CONTENT' });
    expect(js.json.error).toMatch(/JavaScript/);
    const late = await upload(`/api/tickets/${id}/attachments`, Buffer.concat([PNG, Buffer.alloc(2048), HTML]), {
      token: user.token,
      filename: 'cat.png',
    });
    expect(late.status).toBe(415);
    expect(late.json.code).toBe('ATTACHMENT_MARKUP_REFUSED');
    expect(await stored()).toEqual(before);
    expect((await upload(`/api/tickets/${id}/attachments`, plainPdf(), { token: user.token, filename: 'receipt.pdf' })).status).toBe(201);
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
    expect((await call(t, 'POST', `/api/staff/tickets/${targetId}/merge`, { token: support.token, body: { sourceId: id } })).status).toBe(
      200,
    );
    expect((await download(`/api/tickets/guest/${targetId}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(200);
    expect((await download(`/api/tickets/guest/${id}/attachments/${fileId}`, guest.token, guestHeaders(guest))).status).toBe(404);
  });
});
