import { randomBytes } from 'node:crypto';
import { mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ATTACHMENT_MAX_BYTES, type TicketAttachment } from '#shared/schemas/tickets.js';
import { AppError, badRequest } from '#server/errors.js';

/**
 * Ticket attachments (issue 20, decision 0190): the type comes from the content (magic bytes), never
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

const startsWith = (buf: Buffer, bytes: number[], offset = 0) => buf.length >= offset + bytes.length && bytes.every((b, i) => buf[offset + i] === b);
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
 * Markup a browser could sniff and run: what browsers look at (the first 512 bytes; we read 1 KiB),
 * after any BOM and white space. Only checked on files that are not one of the allowed types by their
 * magic bytes (a real PNG's compressed data may hold any byte sequence; served with its own type and
 * nosniff, it is never read as markup).
 */
const MARKUP = /<\s*(svg|html|!doctype|\?xml|script|body|head|iframe|object|embed|xml|a\s|img\s|div|meta)/i;
export function looksLikeMarkup(buf: Buffer): boolean {
  const head = buf.subarray(0, 1024).toString('latin1').replace(/^(\xef\xbb\xbf|\xfe\xff|\xff\xfe)/, '');
  // UTF-16 text would hide "<svg" behind NUL bytes.
  return MARKUP.test(head) || MARKUP.test(head.replace(/\0/g, ''));
}

/**
 * A polyglot: valid magic bytes followed by active markup early in the file (what a sniffing browser
 * would read). Narrower than `looksLikeMarkup` because images and PDFs legitimately carry XML metadata
 * (`<?xpacket`, `<x:xmpmeta`) near the start; served with its own type and nosniff it would be inert
 * anyway, but the issue asks that such files be refused.
 */
const ACTIVE_MARKUP = /<\s*(svg[\s>/]|html[\s>]|script[\s>]|!doctype\s+html|body[\s>]|iframe[\s>])/i;
export function hidesActiveMarkup(buf: Buffer): boolean {
  const head = buf.subarray(0, 1024).toString('latin1');
  return ACTIVE_MARKUP.test(head) || ACTIVE_MARKUP.test(head.replace(/\0/g, ''));
}

export interface CheckedFile {
  contentType: AllowedType;
  filename: string;
}

/** Refuses with a clear 4xx anything that is not a PNG, JPEG, GIF, WebP or PDF by content. */
export function checkUpload(body: unknown, declaredName: string): CheckedFile & { bytes: Buffer } {
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('The file is empty: send the file itself as the request body');
  if (body.length > ATTACHMENT_MAX_BYTES) throw new AppError(413, 'BODY_TOO_LARGE', 'Files can be at most 10 MB');
  const detected = detectType(body);
  if (detected && hidesActiveMarkup(body)) {
    throw new AppError(415, 'ATTACHMENT_MARKUP_REFUSED', 'This file carries HTML or SVG behind an image or PDF header and is not accepted.');
  }
  if (!detected) {
    if (looksLikeMarkup(body)) {
      throw new AppError(415, 'ATTACHMENT_MARKUP_REFUSED', 'HTML, SVG and other markup files are not accepted, whatever their name. Attach a PNG, JPEG, GIF, WebP image or a PDF.');
    }
    throw new AppError(415, 'ATTACHMENT_TYPE_REFUSED', 'Only PNG, JPEG, GIF and WebP images and PDF files can be attached (checked by their content).');
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

  read(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
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
