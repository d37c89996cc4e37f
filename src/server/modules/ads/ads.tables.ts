import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

export const ads = pgTable(
  'ads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    placement: text('placement').notNull(),
    kind: text('kind').notNull().default('text'),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    imageUrl: text('image_url'),
    imageAlt: text('image_alt').notNull().default(''),
    /** Where a click goes. The click redirect reads only this column, so it can never be an open redirect. */
    targetUrl: text('target_url').notNull(),
    /** Schedule; null means unbounded on that side. */
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    weight: integer('weight').notNull().default(1),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ads_placement_idx').on(t.placement, t.active),
    check('ads_kind_known', sql`${t.kind} in ('text', 'image')`),
    check('ads_weight_positive', sql`${t.weight} between 1 and 1000`),
    // A second line of defence behind the API's validation: no javascript:, data: or relative targets.
    check('ads_target_http', sql`${t.targetUrl} ~* '^https?://[^/]'`),
    check('ads_image_https', sql`${t.imageUrl} is null or ${t.imageUrl} ~* '^https://[^/]'`),
    check('ads_schedule_order', sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * When each viewer's impression of each ad was last counted. The gate for de-duplication: one
 * `INSERT ... ON CONFLICT DO UPDATE ... WHERE` on this row decides atomically, on every instance,
 * whether a new impression counts (docs/product.md#ads: once per viewer per ad per 30 minutes).
 */
export const adViewerImpressions = pgTable(
  'ad_viewer_impressions',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    /** `u:<userId>`, `g:<guestId>` or `h:<keyed hash of IP and user agent>`; never a raw IP. */
    viewerKey: text('viewer_key').notNull(),
    lastCountedAt: timestamp('last_counted_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.adId, t.viewerKey] })],
);

/** Every counted impression, for the per-day statistics. */
export const adImpressions = pgTable(
  'ad_impressions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ad_impressions_ad_time_idx').on(t.adId, t.createdAt)],
);

export const adClicks = pgTable(
  'ad_clicks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ad_clicks_ad_time_idx').on(t.adId, t.createdAt)],
);

export type AdRow = typeof ads.$inferSelect;
