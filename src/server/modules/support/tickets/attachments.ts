import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inflateSync } from 'node:zlib';
import { ATTACHMENT_MAX_BYTES, type TicketAttachment } from '#shared/schemas/tickets.js';
import { AppError, badRequest } from '#server/errors.js';

/**
 * Ticket attachments (decision 0190): the type comes from the content (magic bytes), never
 * from the declared type or the name; markup (HTML, SVG, XML) is refused even when it wears an image's
 * name; the bytes are kept under ATTACHMENTS_DIR by a random name, outside the database directory.
 */

type AllowedType = TicketAttachment['contentType'];

const EXTENSION: Record<AllowedType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

const startsWith = (buf: Buffer, bytes: number[], offset = 0) =>
  buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The type the bytes are, or null. */
export function detectType(buf: Buffer): AllowedType | null {
  if (startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(buf, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(buf, ascii('GIF87a')) || startsWith(buf, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(buf, ascii('RIFF')) && startsWith(buf, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(buf, ascii('%PDF-'))) return 'application/pdf';
  return null;
}

/**
 * Markup a browser could sniff and run, anywhere in the file (decision 0211: browsers sniff the first
 * 512 bytes, but other readers, and a page that embeds the file, may look further), after any BOM and
 * white space, also as UTF-16. Only checked on files that are not one of the allowed types by their
 * magic bytes; those get the narrower `hidesActiveMarkup`.
 */
const MARKUP = /<\s*(svg|html|!doctype|\?xml|script|body|head|iframe|object|embed|xml|a\s|img\s|div|meta)/i;
export function looksLikeMarkup(buf: Buffer): boolean {
  const text = buf.toString('latin1').replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, '');
  // UTF-16 text would hide "<svg" behind NUL bytes.
  return MARKUP.test(text) || MARKUP.test(text.replace(/\0/g, ''));
}

/**
 * A polyglot: valid magic bytes with active markup anywhere in the file (decision 0211; it used to be
 * only the first KiB, so 1 KiB of padding hid a whole HTML page). Narrower than `looksLikeMarkup`
 * because images and PDFs legitimately carry XML metadata (`<?xpacket`, `<x:xmpmeta`); served with its
 * own type and nosniff it would be inert anyway, but such files are refused.
 */
const ACTIVE_MARKUP = /<\s*(svg[\s>/]|html[\s>]|script[\s>]|!doctype\s+html|body[\s>]|iframe[\s>])/i;
export function hidesActiveMarkup(buf: Buffer): boolean {
  const text = buf.toString('latin1');
  return ACTIVE_MARKUP.test(text) || ACTIVE_MARKUP.test(text.replace(/\0/g, ''));
}

// ---- PDFs: active content (decision 0211) -----------------------------------------------------------

/** PDF names that make a reader run something or carry other files, and what a person is told. */
const PDF_ACTIVE_NAMES: Record<string, string> = {
  JavaScript: 'JavaScript',
  JS: 'JavaScript',
  OpenAction: 'an action that runs when it opens (OpenAction)',
  Launch: 'an action that starts a program (Launch)',
  EmbeddedFile: 'embedded files',
  EmbeddedFiles: 'embedded files',
};

/** The same names, each as one kind (the `found` of the refusal's details). */
const PDF_ACTIVE_KINDS: Record<string, string> = {
  JavaScript: 'JavaScript',
  JS: 'JavaScript',
  OpenAction: 'OpenAction',
  Launch: 'Launch',
  EmbeddedFile: 'EmbeddedFile',
  EmbeddedFiles: 'EmbeddedFile',
};

/**
 * A PDF name token: `/` then regular characters; PDF white space (NUL, tab, LF, FF, CR, space) and the
 * delimiters end it (ISO 32000-1 7.2.2, 7.3.5). JavaScript's `\s` is not used: it misses NUL, so
 * `/JS\0(…)` would slip through.
 */
const PDF_NAME = /\/([^\0\t\n\f\r /[\]<>(){}%]*)/g;
/** `#xx` in a name is the byte xx: `/J#61vaScript` is `/JavaScript`. */
const decodePdfName = (raw: string) => raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

/**
 * What follows a `/JS` key when it is one: white space or comments, then a string (`(` or `<`) or a
 * reference to a stream (`12 0 R`). Required because a three-letter name turns up by chance in
 * compressed binary data (about once in 30 MB); `/JavaScript`, which every JavaScript action and the
 * document's JavaScript names carry, is long enough not to.
 */
const JS_VALUE = /^(?:[\0\t\n\f\r ]|%[^\r\n]*)*(?:[(<]|\d+[\0\t\n\f\r ]+\d+[\0\t\n\f\r ]+R)/;

/** Every name of `text`, decoded; `JS` only where it is followed by a value. */
function pdfNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const match of text.matchAll(PDF_NAME)) {
    const name = decodePdfName(match[1]!);
    if (name === 'JS' && !JS_VALUE.test(text.slice(match.index + match[0].length, match.index + match[0].length + 200))) continue;
    names.add(name);
  }
  return names;
}

/** Object streams hold whole objects; inflating them past this (a zip bomb) is refused. */
const OBJECT_STREAM_MAX_INFLATED_BYTES = 64 * 1024 * 1024;

export type PdfProblem = { kind: 'active'; found: string[] } | { kind: 'uninspectable' };

/**
 * What makes a PDF unsafe to pass on, or null. Every name in the file is decoded (`#xx`) and compared
 * with the active ones; object streams (`/Type /ObjStm`, or any stream with `/N` and `/First`, which is
 * all a reader needs to use one) hide objects inside compressed data, so each is inflated (FlateDecode)
 * and its names checked too. One that cannot be inflated here (another filter, a predictor, broken or
 * over 64 MB) could hide anything: the PDF is refused as uninspectable.
 */
export function pdfProblem(buf: Buffer): PdfProblem | null {
  const text = buf.toString('latin1');
  const found = new Set<string>();
  const note = (names: Set<string>) => {
    for (const name of names) if (Object.hasOwn(PDF_ACTIVE_NAMES, name)) found.add(name);
  };
  note(pdfNames(text));

  let inflatedBytes = 0;
  for (const stream of pdfStreams(text)) {
    const dict = pdfNames(stream.dict);
    const isObjectStream = dict.has('ObjStm') || (dict.has('N') && dict.has('First'));
    if (!isObjectStream) continue;
    const filters = [...dict].filter((n) => /Decode$|^(Fl|AHx|A85|LZW|RL|CCF|DCT|Crypt)$/.test(n));
    let content: Buffer;
    if (filters.length === 0 && !dict.has('Filter') && !dict.has('F')) {
      continue; // not compressed: its names were read with the rest of the file
    } else if (
      filters.length === 1 &&
      (filters[0] === 'FlateDecode' || filters[0] === 'Fl') &&
      !dict.has('DecodeParms') &&
      !dict.has('DP')
    ) {
      try {
        content = inflateSync(Buffer.from(stream.data, 'latin1'), { maxOutputLength: OBJECT_STREAM_MAX_INFLATED_BYTES - inflatedBytes });
      } catch {
        return { kind: 'uninspectable' };
      }
    } else {
      return { kind: 'uninspectable' };
    }
    inflatedBytes += content.length;
    note(pdfNames(content.toString('latin1')));
  }
  return found.size > 0 ? { kind: 'active', found: [...found] } : null;
}

/**
 * Each stream of a PDF: its dictionary (the text from its `N G obj` to the `stream` keyword) and its
 * bytes (up to `endstream`). A scan, not a parser: enough to find every object stream, whatever the
 * cross-reference table says.
 */
function* pdfStreams(text: string): Generator<{ dict: string; data: string }> {
  const objStarts = [...text.matchAll(/\d+\s+\d+\s+obj\b/g)].map((m) => m.index);
  const streamKeyword = /(?<![A-Za-z])stream(?:\r\n|\n|\r)/g;
  let obj = -1;
  for (const match of text.matchAll(streamKeyword)) {
    const start = match.index;
    while (obj + 1 < objStarts.length && objStarts[obj + 1]! < start) obj += 1;
    const dictFrom = obj >= 0 ? objStarts[obj]! : 0;
    const dataFrom = start + match[0].length;
    const end = text.indexOf('endstream', dataFrom);
    yield { dict: text.slice(dictFrom, start), data: text.slice(dataFrom, end === -1 ? text.length : end) };
  }
}

export interface CheckedFile {
  contentType: AllowedType;
  filename: string;
}

/** Refuses with a clear 4xx anything that is not a PNG, JPEG, GIF, WebP or PDF by content. */
export function checkUpload(body: unknown, declaredName: string): CheckedFile & { bytes: Buffer } {
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The file is empty: send the file itself as the request body');
  if (body.length > ATTACHMENT_MAX_BYTES) throw new AppError('BODY_TOO_LARGE', 'Files can be at most 10 MB');
  const detected = detectType(body);
  if (detected && hidesActiveMarkup(body)) {
    throw new AppError('ATTACHMENT_MARKUP_REFUSED', 'This file carries HTML or SVG behind an image or PDF header and is not accepted.');
  }
  if (detected === 'application/pdf') {
    const problem = pdfProblem(body);
    if (problem?.kind === 'active') {
      const what = [...new Set(problem.found.map((name) => PDF_ACTIVE_NAMES[name]!))].join(', ');
      // `found` names what was found for the web to word in the reader's language (JavaScript, OpenAction, Launch, EmbeddedFile).
      const found = [...new Set(problem.found.map((name) => PDF_ACTIVE_KINDS[name]!))];
      throw new AppError(
        'ATTACHMENT_PDF_ACTIVE_CONTENT',
        `PDFs with JavaScript, actions that run on opening or start programs, or embedded files are not accepted; this one has ${what}. Print it to a new PDF, or attach a screenshot.`,
        { details: { found } },
      );
    }
    if (problem?.kind === 'uninspectable') {
      throw new AppError(
        'ATTACHMENT_PDF_UNINSPECTABLE',
        'This PDF keeps some of its content in a compressed form that cannot be checked, so it is not accepted. Print it to a new PDF, or attach a screenshot.',
      );
    }
  }
  if (!detected) {
    if (looksLikeMarkup(body)) {
      throw new AppError(
        'ATTACHMENT_MARKUP_REFUSED',
        'HTML, SVG and other markup files are not accepted, whatever their name. Attach a PNG, JPEG, GIF, WebP image or a PDF.',
      );
    }
    throw new AppError(
      'ATTACHMENT_TYPE_REFUSED',
      'Only PNG, JPEG, GIF and WebP images and PDF files can be attached (checked by their content).',
    );
  }
  return { bytes: body, contentType: detected, filename: safeFilename(declaredName, detected) };
}

/**
 * A name safe in a Content-Disposition header and on any disk: no path, only letters, digits, dot,
 * dash, underscore and space, at most 100 characters, and the extension of the detected type.
 */
export function safeFilename(declared: string, type: AllowedType): string {
  const base = declared.split(/[\\/]/).pop() ?? '';
  const stem = base
    .replace(/\.[^.]*$/, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 _.-]+/g, '_')
    .replace(/^[.\s_-]+/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 90);
  return `${stem || 'attachment'}.${EXTENSION[type]}`;
}

/** Files live under `dir` by a random name; callers keep the name in the database. */
export class AttachmentStore {
  constructor(private readonly dir: string) {}

  async save(bytes: Buffer): Promise<string> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const key = randomBytes(16).toString('hex');
    await writeFile(this.pathOf(key), bytes, { flag: 'wx', mode: 0o600 });
    return key;
  }

  /**
   * Writes what `source` yields to a new file as it comes, with the file's backpressure: `source` is
   * pulled only as fast as the disk takes it, so the file is never whole in memory (a data export,
   * decision 0308). A failed or aborted write leaves no file behind.
   */
  async saveStream(source: AsyncIterable<Uint8Array>): Promise<{ key: string; size: number }> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const key = randomBytes(16).toString('hex');
    const file = this.pathOf(key);
    const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
    try {
      await pipeline(source, out);
    } catch (err) {
      await unlink(file).catch(() => undefined);
      throw err;
    }
    return { key, size: out.bytesWritten };
  }

  read(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  /**
   * A file's size and a stream of its bytes, read a chunk at a time (decision 0308). Rejects (ENOENT)
   * when the file is gone; the stream closes the file when it ends or is destroyed.
   */
  async openStream(key: string): Promise<{ size: number; stream: Readable }> {
    const handle = await open(this.pathOf(key), 'r');
    try {
      const { size } = await handle.stat();
      return { size, stream: handle.createReadStream() };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await unlink(this.pathOf(key)).catch(() => undefined);
  }

  private pathOf(key: string): string {
    if (!/^[0-9a-f]{32}$/.test(key)) throw new Error('bad attachment key');
    return path.join(this.dir, key);
  }
}

/**
 * Headers for a download: the detected type, nosniff, a CSP that runs nothing, images inline and
 * everything else (PDF) as a download with the safe name.
 */
export function downloadHeaders(file: { contentType: string; filename: string; size: number }): Record<string, string> {
  const isImage = file.contentType.startsWith('image/');
  return {
    'content-type': file.contentType,
    'content-length': String(file.size),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    'content-disposition': `${isImage ? 'inline' : 'attachment'}; filename="${file.filename.replace(/["\\]/g, '_')}"`,
    'cache-control': 'private, no-store',
    'cross-origin-resource-policy': 'same-origin',
  };
}
