import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
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
    /** The target as last submitted (under review for a campaign's creative); a click goes to `approved_target_url` only. */
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
    /** A campaign's creative (null: a house ad placed by staff). */
    campaignId: uuid('campaign_id').references((): AnyPgColumn => adCampaigns.id, { onDelete: 'cascade' }),
    /** Staff review of a campaign's creative; house ads are approved. Only approved ads are ever live. */
    reviewStatus: text('review_status').$type<AdReviewStatus>().notNull().default('approved'),
    reviewReason: text('review_reason'),
    reviewedBy: uuid('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    /**
     * The target staff last approved (house ads: the one staff set): the only place a click redirects to
     * (docs/decisions/0302). Null until a first approval; an edit waiting for review keeps the old one.
     */
    approvedTargetUrl: text('approved_target_url'),
    /** The approved image, fetched once at approval and served from our origin (docs/decisions/0303). */
    approvedImageId: uuid('approved_image_id').references((): AnyPgColumn => adImages.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('ads_campaign_idx').on(t.campaignId),
    index('ads_review_idx').on(t.reviewStatus),
    check('ads_review_status_known', sql`${t.reviewStatus} in ('pending', 'approved', 'rejected')`),
    index('ads_placement_idx').on(t.placement, t.active),
    check('ads_kind_known', sql`${t.kind} in ('text', 'image')`),
    check('ads_weight_positive', sql`${t.weight} between 1 and 1000`),
    // A second line of defence behind the API's validation: no javascript:, data: or relative targets.
    check('ads_target_http', sql`${t.targetUrl} ~* '^https?://[^/]'`),
    check('ads_approved_target_http', sql`${t.approvedTargetUrl} is null or ${t.approvedTargetUrl} ~* '^https?://[^/]'`),
    check('ads_image_https', sql`${t.imageUrl} is null or ${t.imageUrl} ~* '^https://[^/]'`),
    check('ads_schedule_order', sql`${t.startsAt} is null or ${t.endsAt} is null or ${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * A viewer's delivery state for one ad (docs/decisions/0296). `last_counted_at` is the gate for
 * de-duplication: one `INSERT ... ON CONFLICT DO UPDATE ... WHERE` (or, for a campaign's creative, one
 * `UPDATE` of the row its serve wrote) decides atomically, on every instance, whether a new impression
 * counts (docs/product.md#ads: once per viewer per ad per 30 minutes). `served_at` is when a campaign's
 * creative was last served to the viewer: its impression or click without a serve in the window is invalid
 * traffic. `counted_today` counts the viewer's counted impressions on `counted_day` (UTC): a campaign's
 * frequency cap adds them up over its creatives.
 */
export const adViewerImpressions = pgTable(
  'ad_viewer_impressions',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    /** `u:<userId>`, `g:<guestId>` or `h:<keyed hash of IP and user agent>`; never a raw IP. */
    viewerKey: text('viewer_key').notNull(),
    lastCountedAt: timestamp('last_counted_at', { withTimezone: true }),
    servedAt: timestamp('served_at', { withTimezone: true }),
    countedDay: date('counted_day'),
    countedToday: integer('counted_today').notNull().default(0),
    /** Serves of this ad to this viewer on `served_day` (UTC): the frequency cap adds them up over a campaign's creatives. */
    servedDay: date('served_day'),
    servedToday: integer('served_today').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.adId, t.viewerKey] }),
    check('ad_viewer_impressions_served_or_counted', sql`${t.servedAt} is not null or ${t.lastCountedAt} is not null`),
  ],
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
export type AdReviewStatus = 'pending' | 'approved' | 'rejected';
export type CampaignStatus = 'active' | 'paused' | 'ended';

/**
 * A self-serve campaign (docs/decisions/0280): its budget was reserved from the owner's balance with a
 * `spend` entry (`ad-campaign:<id>`); delivery draws `unit_millicents` per charged impression (CPM) or
 * click (CPC) from `remaining_millicents`; what is left comes back once when it ends
 * (`ad-campaign-refund:<id>`).
 */
export const adCampaigns = pgTable(
  'ad_campaigns',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The paying account; null for a house campaign (docs/decisions/0283). */
    ownerId: uuid('owner_id').references(() => users.id, { onDelete: 'restrict' }),
    /** A house campaign: run by staff, paid by nobody, served only where no paid campaign is (docs/decisions/0283). */
    house: boolean('house').notNull().default(false),
    /** The admin who created a house campaign (null for a paid one: its owner created it). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    placements: text('placements').array().notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    priceModel: text('price_model').$type<'cpm' | 'cpc'>().notNull(),
    /** Cents per 1,000 viewable impressions (CPM) or per click (CPC). */
    priceCents: integer('price_cents').notNull(),
    /** What one charged impression (CPM: price_cents) or click (CPC: price_cents * 1000) draws, in thousandths of a cent. */
    unitMillicents: bigint('unit_millicents', { mode: 'number' }).notNull(),
    /** Null only for a house campaign without a budget (then `remaining_millicents` is null too). */
    budgetCents: bigint('budget_cents', { mode: 'number' }),
    dailyBudgetCents: bigint('daily_budget_cents', { mode: 'number' }),
    /** Charged impressions per viewer per UTC day; null: no cap. */
    frequencyCap: integer('frequency_cap'),
    remainingMillicents: bigint('remaining_millicents', { mode: 'number' }),
    /** Written by each draw: how many units that draw took (read back through RETURNING). */
    lastDrawUnits: bigint('last_draw_units', { mode: 'number' }).notNull().default(0),
    /** What the draws took on `spend_day` (UTC): the daily budget is checked against it under the row lock of each draw. */
    spendDay: date('spend_day'),
    spendTodayMillicents: bigint('spend_today_millicents', { mode: 'number' }).notNull().default(0),
    status: text('status').$type<CampaignStatus>().notNull().default('active'),
    endReason: text('end_reason'),
    refundedCents: bigint('refunded_cents', { mode: 'number' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ad_campaigns_owner_idx').on(t.ownerId, t.createdAt),
    index('ad_campaigns_status_idx').on(t.status, t.endsAt),
    check('ad_campaigns_price_model_known', sql`${t.priceModel} in ('cpm', 'cpc')`),
    check('ad_campaigns_status_known', sql`${t.status} in ('active', 'paused', 'ended')`),
    check('ad_campaigns_price_positive', sql`${t.priceCents} > 0`),
    check(
      'ad_campaigns_unit_matches',
      sql`${t.unitMillicents} = CASE WHEN ${t.priceModel} = 'cpm' THEN ${t.priceCents}::bigint ELSE ${t.priceCents}::bigint * 1000 END`,
    ),
    check('ad_campaigns_budget_positive', sql`${t.budgetCents} > 0`),
    check('ad_campaigns_daily_positive', sql`${t.dailyBudgetCents} is null or ${t.dailyBudgetCents} > 0`),
    check('ad_campaigns_cap_positive', sql`${t.frequencyCap} is null or ${t.frequencyCap} > 0`),
    check('ad_campaigns_remaining_in_budget', sql`${t.remainingMillicents} >= 0 and ${t.remainingMillicents} <= ${t.budgetCents} * 1000`),
    check('ad_campaigns_schedule_order', sql`${t.endsAt} > ${t.startsAt}`),
    check('ad_campaigns_house_unowned', sql`${t.house} = (${t.ownerId} is null)`),
    check('ad_campaigns_paid_budgeted', sql`${t.house} or (${t.budgetCents} is not null and ${t.remainingMillicents} is not null)`),
    check('ad_campaigns_budget_both_or_none', sql`(${t.budgetCents} is null) = (${t.remainingMillicents} is null)`),
    check('ad_campaigns_ended_empty', sql`${t.status} <> 'ended' or ${t.remainingMillicents} = 0`),
  ],
);

/** Per creative and UTC day: the campaign report (served, viewable, invalid traffic, clicks, spend). */
export const adCampaignDays = pgTable(
  'ad_campaign_days',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    campaignId: uuid('campaign_id')
      .notNull()
      .references(() => adCampaigns.id, { onDelete: 'cascade' }),
    served: integer('served').notNull().default(0),
    viewable: integer('viewable').notNull().default(0),
    invalid: integer('invalid').notNull().default(0),
    /**
     * Why, part of `invalid` (docs/decisions/0319): a known robot's user agent; past the campaign's
     * frequency cap; no serve to the viewer within the window, or already counted within it. Rows tallied
     * before these columns have them at 0: the rest of `invalid` is unrecorded.
     */
    invalidRobot: integer('invalid_robot').notNull().default(0),
    invalidOverCap: integer('invalid_over_cap').notNull().default(0),
    invalidUnmatched: integer('invalid_unmatched').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    spendMillicents: bigint('spend_millicents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.adId, t.day] }), index('ad_campaign_days_campaign_idx').on(t.campaignId, t.day)],
);

/** When a viewer's click on a CPC creative was last charged: at most one per viewer and creative per window. */
export const adPaidClicks = pgTable(
  'ad_paid_clicks',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    lastChargedAt: timestamp('last_charged_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.adId, t.viewerKey] })],
);

/**
 * When a charged unit (a CPM impression or a CPC click) of a creative was last drawn for a network
 * address (an IPv4 address, an IPv6 /64; `address_key` is a keyed hash of it): at most one per
 * creative and address per window, whatever the user agents, guests or accounts behind it (docs/decisions/0302).
 */
export const adAddressCharges = pgTable(
  'ad_address_charges',
  {
    adId: uuid('ad_id')
      .notNull()
      .references(() => ads.id, { onDelete: 'cascade' }),
    addressKey: text('address_key').notNull(),
    lastChargedAt: timestamp('last_charged_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.adId, t.addressKey] })],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** An approved ad image, fetched once from the advertiser's address at approval (docs/decisions/0303). */
export const adImages = pgTable(
  'ad_images',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sourceUrl: text('source_url').notNull(),
    contentType: text('content_type').notNull(),
    /** Read and written as base64 through SQL (`encode`/`decode`): both engines agree on text. */
    bytes: bytea('bytes').notNull(),
    byteSize: integer('byte_size').notNull(),
    sha256: text('sha256').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('ad_images_type_known', sql`${t.contentType} in ('image/png', 'image/jpeg', 'image/gif', 'image/webp')`)],
);

export type CampaignRow = typeof adCampaigns.$inferSelect;
