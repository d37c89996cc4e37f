import { createHash } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { sql } from 'drizzle-orm';
import { AD_IMAGE_MAX_BYTES } from '#shared/ad-rules.js';
import type { DbOrTx } from '#server/db/client.js';
import { AppError } from '#server/errors.js';
import { detectType, hidesActiveMarkup } from '#server/modules/support/tickets/attachments.js';
import { hostOf, TargetRefusedError, vetTarget } from '#server/modules/webhooks/address-policy.js';
import { pinnedLookup } from '#server/modules/webhooks/sender.js';

export const AD_IMAGE_FETCH_TIMEOUT_MS = 10_000;
export const AD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type AdImageType = (typeof AD_IMAGE_TYPES)[number];

export interface FetchedImage {
  bytes: Buffer;
  contentType: AdImageType;
}

/** Fetches an ad image's bytes, or throws AdImageRefusedError with a reason fit for the reviewer. */
export type AdImageFetcher = (url: string) => Promise<Buffer>;

export class AdImageRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdImageRefusedError';
  }
}

/** 422 AD_IMAGE_REFUSED: the review (or the house ad) is not saved, the reviewer is told why. */
export const imageRefused = (reason: string) => new AppError('AD_IMAGE_REFUSED', `The ad image could not be taken: ${reason}`);

/**
 * The real fetch (docs/decisions/0303): the same outbound-request safety as webhooks
 * (`vetTarget`: https only, no credentials, every resolved address public unless the operator allows
 * private ones, the socket pinned to the checked address so DNS cannot rebind), one GET, no redirect
 * followed, 10 s for the whole exchange, at most AD_IMAGE_MAX_BYTES read.
 */
export function httpImageFetcher(options: { allowPrivate: boolean }): AdImageFetcher {
  return async (rawUrl) => {
    let target;
    try {
      target = await vetTarget(rawUrl, { allowPrivate: options.allowPrivate });
    } catch (err) {
      if (err instanceof TargetRefusedError)
        throw new AdImageRefusedError(err.message.replace(/webhooks?/gi, 'ad images').replace(/Webhook URLs/g, 'Image addresses'));
      throw err;
    }
    const { url } = target;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<Buffer>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, bytes?: Buffer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(bytes!);
      };
      const request = client.request(
        {
          protocol: url.protocol,
          host: hostOf(url),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'GET',
          headers: { accept: AD_IMAGE_TYPES.join(', '), 'user-agent': 'Olympus-AdReview/1.0' },
          lookup: pinnedLookup(target.address, target.family),
          agent: false,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status !== 200) {
            response.resume();
            request.destroy();
            finish(
              new AdImageRefusedError(
                status >= 300 && status < 400 ? 'the image address redirects elsewhere' : `the image server answered ${status}`,
              ),
            );
            return;
          }
          const declared = Number(response.headers['content-length'] ?? 0);
          if (declared > AD_IMAGE_MAX_BYTES) {
            request.destroy();
            finish(new AdImageRefusedError(`the image is larger than ${AD_IMAGE_MAX_BYTES / 1024} KiB`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > AD_IMAGE_MAX_BYTES) {
              request.destroy();
              finish(new AdImageRefusedError(`the image is larger than ${AD_IMAGE_MAX_BYTES / 1024} KiB`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => finish(null, Buffer.concat(chunks)));
          response.on('error', (err) => finish(new AdImageRefusedError(`the download failed (${err.message})`)));
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        finish(new AdImageRefusedError(`no answer within ${AD_IMAGE_FETCH_TIMEOUT_MS / 1000} seconds`));
      }, AD_IMAGE_FETCH_TIMEOUT_MS);
      request.on('error', (err) => finish(new AdImageRefusedError(`the image server could not be reached (${err.message})`)));
      request.end();
    });
  };
}

/** The checks on the bytes: a size, one of four picture types by its magic bytes, no markup hidden inside. */
export function checkImage(bytes: Buffer): FetchedImage {
  if (bytes.length === 0) throw new AdImageRefusedError('the image is empty');
  if (bytes.length > AD_IMAGE_MAX_BYTES) throw new AdImageRefusedError(`the image is larger than ${AD_IMAGE_MAX_BYTES / 1024} KiB`);
  const type = detectType(bytes);
  if (type === null || !(AD_IMAGE_TYPES as readonly string[]).includes(type))
    throw new AdImageRefusedError('it is not a PNG, JPEG, GIF or WebP picture');
  if (hidesActiveMarkup(bytes)) throw new AdImageRefusedError('it carries markup a browser could run');
  return { bytes, contentType: type as AdImageType };
}

/** The public address of a stored image: our origin, never the advertiser's. */
export const adImagePath = (imageId: string) => `/api/ads/images/${imageId}`;

/**
 * Approved ad images in our own storage (docs/decisions/0303): fetched once when staff approve (or an
 * admin saves a house ad), checked, and kept in `ad_images`; visitors load them from our origin, so the
 * picture cannot change after the review and the advertiser never sees who looks at it.
 */
export class AdImageStore {
  constructor(private readonly fetcher: AdImageFetcher) {}

  /** Fetches, checks and stores the image at `url`; answers its id. 422 AD_IMAGE_REFUSED with the reason otherwise. */
  async take(db: DbOrTx, url: string): Promise<string> {
    let image: FetchedImage;
    try {
      image = checkImage(await this.fetcher(url));
    } catch (err) {
      if (err instanceof AdImageRefusedError) throw imageRefused(err.message);
      throw err;
    }
    const sha256 = createHash('sha256').update(image.bytes).digest('hex');
    const result = await db.execute<{ id: string }>(sql`
      INSERT INTO ad_images (source_url, content_type, bytes, byte_size, sha256)
      VALUES (${url}, ${image.contentType}, decode(${image.bytes.toString('base64')}, 'base64'), ${image.bytes.length}, ${sha256})
      RETURNING id`);
    return result.rows[0]!.id;
  }

  /** A stored image that an ad uses (an image no ad uses is never served), or null. */
  async read(db: DbOrTx, id: string): Promise<FetchedImage | null> {
    const result = await db.execute<{ content_type: string; bytes: string }>(sql`
      SELECT i.content_type, encode(i.bytes, 'base64') AS bytes FROM ad_images i
      WHERE i.id = ${id} AND EXISTS (SELECT 1 FROM ads a WHERE a.approved_image_id = i.id)`);
    const row = result.rows[0];
    return row ? { contentType: row.content_type as AdImageType, bytes: Buffer.from(row.bytes, 'base64') } : null;
  }
}
