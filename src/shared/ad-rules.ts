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
