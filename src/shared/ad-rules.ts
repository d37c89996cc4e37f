/**
 * The ads rules as plain values, without zod: the ad slot on the home page's first render needs them,
 * and importing them from the schema file would load zod with it. `schemas/ads.ts` re-exports them.
 */

/** Where an ad can appear. Each page with an ad slot names its placement; staff pick from this list. */
export const AD_PLACEMENTS = ['home-banner', 'patch-notes'] as const;
export type AdPlacement = (typeof AD_PLACEMENTS)[number];

export const AD_KINDS = ['text', 'image'] as const;
export type AdKind = (typeof AD_KINDS)[number];

/**
 * An impression counts once per viewer per ad in this window, on the server and in the browser
 * (docs/product.md#ads).
 */
export const AD_IMPRESSION_WINDOW_MS = 30 * 60 * 1000;
/** The viewability rule (IAB/MRC): at least this share of the ad visible... */
export const AD_VIEWABLE_RATIO = 0.5;
/** ...for at least this long, without interruption. */
export const AD_VIEWABLE_MS = 1000;

export const AD_WEIGHT_MAX = 1000;

/**
 * Self-serve campaigns (docs/product.md#ads, decision 0280): the price models and the smallest prices
 * and budgets. CPM prices are cents per 1,000 viewable impressions; CPC prices cents per click.
 */
export const AD_PRICE_MODELS = ['cpm', 'cpc'] as const;
export type AdPriceModel = (typeof AD_PRICE_MODELS)[number];
export const AD_MIN_PRICE_CENTS: Record<AdPriceModel, number> = { cpm: 200, cpc: 10 };
export const AD_MAX_PRICE_CENTS = 100_000;
export const AD_MIN_BUDGET_CENTS = 500;
export const AD_MAX_BUDGET_CENTS = 10_000_000;
export const AD_MIN_DAILY_BUDGET_CENTS = 100;
export const AD_MAX_FREQUENCY_CAP = 100;
export const AD_MAX_CREATIVES = 5;
/** The longest a campaign may run. */
export const AD_MAX_CAMPAIGN_DAYS = 366;
/** A rejection reason is shown to the advertiser. */
export const AD_REJECT_REASON_MAX = 500;
/**
 * Pacing: by a given moment of the UTC day a campaign may have spent its daily budget times the share
 * of the day gone, plus this head start (so a campaign starting at midnight is not starved).
 */
export const AD_PACING_HEAD_START_SECONDS = 3600;

/** The largest ad image we fetch and keep at approval (docs/decisions/0303). */
export const AD_IMAGE_MAX_BYTES = 512 * 1024;
/** A guest session younger than this is not a paid viewer: it is served house ads only (docs/decisions/0302). */
export const AD_PAID_GUEST_MIN_AGE_MS = 60 * 60 * 1000;
