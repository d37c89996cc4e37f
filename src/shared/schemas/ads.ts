import { z } from 'zod';
import {
  AD_KINDS,
  AD_MAX_BUDGET_CENTS,
  AD_MAX_CAMPAIGN_DAYS,
  AD_MAX_CREATIVES,
  AD_MAX_FREQUENCY_CAP,
  AD_MAX_PRICE_CENTS,
  AD_MIN_BUDGET_CENTS,
  AD_MIN_DAILY_BUDGET_CENTS,
  AD_MIN_PRICE_CENTS,
  AD_PLACEMENTS,
  AD_PRICE_MODELS,
  AD_REJECT_REASON_MAX,
  AD_WEIGHT_MAX,
} from '#shared/ad-rules.js';
import { multiline, uuidParamsSchema, uuidSchema } from './common.js';

export {
  AD_IMPRESSION_WINDOW_MS,
  AD_KINDS,
  AD_PLACEMENTS,
  AD_VIEWABLE_MS,
  AD_VIEWABLE_RATIO,
  AD_WEIGHT_MAX,
  type AdKind,
  type AdPlacement,
} from '#shared/ad-rules.js';
export const adPlacementSchema = z.enum(AD_PLACEMENTS);

/**
 * No spaces or control characters inside an address: the URL parser silently drops tabs and line
 * breaks, so such a value would pass the check below yet be stored (and later sent in a Location
 * header, which Node refuses) as typed.
 */
function hasNoSpaceOrControl(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return !/\s/.test(value);
}

/** Only http(s): a javascript: or data: target would turn the tracked redirect into an attack. */
const httpUrl = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .max(2000, `${label} must be at most 2000 characters`)
    .refine(hasNoSpaceOrControl, `${label} must not contain spaces or line breaks`)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
      } catch {
        return false;
      }
    }, `${label} must be an http or https address`);

/** The page serves images over https only (its Content-Security-Policy), so creatives must too. */
const httpsImageUrl = z
  .string()
  .trim()
  .max(2000, 'Image address must be at most 2000 characters')
  .refine(hasNoSpaceOrControl, 'Image address must not contain spaces or line breaks')
  .refine((value) => {
    try {
      return new URL(value).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Image address must be an https address');

const isoDateTime = z.iso.datetime({ offset: true, error: 'Use a full date and time (ISO 8601)' });

const adFieldsSchema = z.object({
  placement: adPlacementSchema,
  kind: z.enum(AD_KINDS).default('text'),
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(2, 'Title must be at least 2 characters')
    .max(80, 'Title must be at most 80 characters'),
  body: multiline(z.string().trim().max(280, 'Text must be at most 280 characters')).default(''),
  imageUrl: httpsImageUrl.nullable().default(null),
  imageAlt: z.string().trim().max(200, 'Image description must be at most 200 characters').default(''),
  targetUrl: httpUrl('Target address'),
  startsAt: isoDateTime.nullable().default(null),
  endsAt: isoDateTime.nullable().default(null),
  weight: z
    .number()
    .int('Weight must be a whole number')
    .min(1, 'Weight must be at least 1')
    .max(AD_WEIGHT_MAX, `Weight must be at most ${AD_WEIGHT_MAX}`)
    .default(1),
  active: z.boolean().default(true),
});

type AdFields = z.infer<typeof adFieldsSchema>;

/** Rules that involve more than one field, shared by create and by update (on the merged ad). */
export function adRuleIssues(
  ad: Partial<Pick<AdFields, 'kind' | 'imageUrl' | 'imageAlt' | 'startsAt' | 'endsAt'>>,
): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (ad.kind === 'image' && !ad.imageUrl) issues.push({ path: 'imageUrl', message: 'An image ad needs an image address' });
  if (ad.kind === 'image' && ad.imageUrl && !ad.imageAlt) {
    issues.push({ path: 'imageAlt', message: 'Describe the image for people who cannot see it' });
  }
  if (ad.startsAt && ad.endsAt && new Date(ad.endsAt) <= new Date(ad.startsAt)) {
    issues.push({ path: 'endsAt', message: 'The end must be after the start' });
  }
  return issues;
}

export const createAdBodySchema = adFieldsSchema.superRefine((ad, ctx) => {
  for (const issue of adRuleIssues(ad)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type CreateAdBody = z.input<typeof createAdBodySchema>;

/** Update: any subset of the fields; the merged ad is checked against the same rules on the server. */
export const updateAdBodySchema = adFieldsSchema
  .partial()
  .extend({
    // `.partial()` keeps defaults, which would reset omitted fields; an update changes only what it names.
    kind: z.enum(AD_KINDS).optional(),
    body: multiline(z.string().trim().max(280, 'Text must be at most 280 characters')).optional(),
    imageUrl: httpsImageUrl.nullable().optional(),
    imageAlt: z.string().trim().max(200, 'Image description must be at most 200 characters').optional(),
    startsAt: isoDateTime.nullable().optional(),
    endsAt: isoDateTime.nullable().optional(),
    weight: z
      .number()
      .int('Weight must be a whole number')
      .min(1, 'Weight must be at least 1')
      .max(AD_WEIGHT_MAX, `Weight must be at most ${AD_WEIGHT_MAX}`)
      .optional(),
    active: z.boolean().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type UpdateAdBody = z.input<typeof updateAdBodySchema>;

export const adIdParamsSchema = uuidParamsSchema('Unknown ad');
export const adImageParamsSchema = uuidParamsSchema('Unknown ad image');
export const adPlacementQuerySchema = z.object({ placement: adPlacementSchema });

/** What a visitor's browser gets: the creative and the tracked link, never anything about targeting. */
export const publicAdSchema = z.object({
  _id: z.string(),
  placement: adPlacementSchema,
  kind: z.enum(AD_KINDS),
  title: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  imageAlt: z.string(),
  /** The advertiser's host name, shown beside the label so people know where the link goes. */
  displayHost: z.string(),
  /** Our tracked redirect (GET, 302 to the ad's stored target). */
  clickUrl: z.string(),
});
export type PublicAd = z.infer<typeof publicAdSchema>;

export const adForPlacementResponseSchema = z.object({ ad: publicAdSchema.nullable() });
export type AdForPlacementResponse = z.infer<typeof adForPlacementResponseSchema>;

/** POST /api/ads/{id}/impression: whether this call counted (false: already counted in the window, or not live). */
export const impressionResponseSchema = z.object({ recorded: z.boolean() });
export type ImpressionResponse = z.infer<typeof impressionResponseSchema>;

export const staffAdSchema = z.object({
  _id: z.string(),
  placement: adPlacementSchema,
  kind: z.enum(AD_KINDS),
  title: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  imageAlt: z.string(),
  targetUrl: z.string(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  weight: z.number().int(),
  active: z.boolean(),
  /** Active and inside its schedule right now. */
  live: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StaffAd = z.infer<typeof staffAdSchema>;

export const staffAdResponseSchema = z.object({ ad: staffAdSchema });
export const staffAdListResponseSchema = z.object({ ads: z.array(staffAdSchema) });

export const adStatsQuerySchema = z.object({
  /** How many days back, today included (UTC days). */
  days: z.coerce.number().int().min(1).max(365).default(30),
  adId: uuidSchema.optional(),
});

export const adDayStatsSchema = z.object({
  adId: z.string(),
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  impressions: z.number().int(),
  uniqueViewers: z.number().int(),
  clicks: z.number().int(),
  /** clicks / impressions, 0 when there were no impressions. */
  clickThroughRate: z.number(),
});
export type AdDayStats = z.infer<typeof adDayStatsSchema>;

export const adStatsResponseSchema = z.object({ stats: z.array(adDayStatsSchema) });
export type AdStatsResponse = z.infer<typeof adStatsResponseSchema>;

// ---- Campaigns (self-serve, paid with credits: docs/product.md#ads) ------------------------------------

export {
  AD_PACING_HEAD_START_SECONDS,
  AD_MAX_BUDGET_CENTS,
  AD_MAX_CAMPAIGN_DAYS,
  AD_MAX_CREATIVES,
  AD_MAX_FREQUENCY_CAP,
  AD_MAX_PRICE_CENTS,
  AD_MIN_BUDGET_CENTS,
  AD_MIN_DAILY_BUDGET_CENTS,
  AD_MIN_PRICE_CENTS,
  AD_PRICE_MODELS,
  AD_REJECT_REASON_MAX,
  type AdPriceModel,
} from '#shared/ad-rules.js';

const cents = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} is required` })
    .int(`${label} must be whole cents`)
    .min(min, `${label} must be at least ${(min / 100).toFixed(2)} credits`)
    .max(max, `${label} must be at most ${(max / 100).toFixed(2)} credits`);

/** One creative of a campaign: the existing kinds and address rules of ads. */
const creativeFieldsSchema = z.object({
  kind: z.enum(AD_KINDS).default('text'),
  title: z
    .string({ error: 'Title is required' })
    .trim()
    .min(2, 'Title must be at least 2 characters')
    .max(80, 'Title must be at most 80 characters'),
  body: multiline(z.string().trim().max(280, 'Text must be at most 280 characters')).default(''),
  imageUrl: httpsImageUrl.nullable().default(null),
  imageAlt: z.string().trim().max(200, 'Image description must be at most 200 characters').default(''),
  targetUrl: httpUrl('Target address'),
});

export const creativeBodySchema = creativeFieldsSchema.superRefine((ad, ctx) => {
  for (const issue of adRuleIssues(ad)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
});
export type CreativeBody = z.input<typeof creativeBodySchema>;

const campaignFieldsSchema = z.object({
  /** Chosen by the browser once per form: sending the same request twice creates one campaign. */
  requestId: uuidSchema,
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(2, 'Name must be at least 2 characters')
    .max(80, 'Name must be at most 80 characters'),
  placements: z.array(adPlacementSchema).min(1, 'Choose at least one placement').max(AD_PLACEMENTS.length),
  startsAt: isoDateTime,
  endsAt: isoDateTime,
  priceModel: z.enum(AD_PRICE_MODELS),
  priceCents: cents('Price', 1, AD_MAX_PRICE_CENTS),
  budgetCents: cents('Budget', AD_MIN_BUDGET_CENTS, AD_MAX_BUDGET_CENTS),
  dailyBudgetCents: cents('Daily budget', AD_MIN_DAILY_BUDGET_CENTS, AD_MAX_BUDGET_CENTS).nullable().default(null),
  frequencyCap: z
    .number()
    .int('Use a whole number')
    .min(1, 'At least 1 a day')
    .max(AD_MAX_FREQUENCY_CAP, `At most ${AD_MAX_FREQUENCY_CAP} a day`)
    .nullable()
    .default(null),
  creatives: z.array(creativeBodySchema).min(1, 'Add at least one creative').max(AD_MAX_CREATIVES, `At most ${AD_MAX_CREATIVES} creatives`),
});

function campaignRules(
  c: {
    placements: string[];
    startsAt: string;
    endsAt: string;
    priceModel: (typeof AD_PRICE_MODELS)[number];
    priceCents: number;
    budgetCents: number | null;
    dailyBudgetCents: number | null;
  },
  ctx: z.RefinementCtx,
) {
  if (new Set(c.placements).size !== c.placements.length)
    ctx.addIssue({ code: 'custom', path: ['placements'], message: 'Each placement once' });
  const start = Date.parse(c.startsAt);
  const end = Date.parse(c.endsAt);
  if (end <= start) ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'The end must be after the start' });
  if (end - start > AD_MAX_CAMPAIGN_DAYS * 86_400_000)
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: `A campaign runs at most ${AD_MAX_CAMPAIGN_DAYS} days` });
  if (c.priceCents < AD_MIN_PRICE_CENTS[c.priceModel]) {
    ctx.addIssue({
      code: 'custom',
      path: ['priceCents'],
      message: `The price must be at least ${(AD_MIN_PRICE_CENTS[c.priceModel] / 100).toFixed(2)} credits`,
    });
  }
  if (c.dailyBudgetCents !== null && c.budgetCents !== null && c.dailyBudgetCents > c.budgetCents) {
    ctx.addIssue({ code: 'custom', path: ['dailyBudgetCents'], message: 'The daily budget cannot be more than the total budget' });
  }
}

export const createCampaignBodySchema = campaignFieldsSchema.superRefine(campaignRules);
export type CreateCampaignBody = z.input<typeof createCampaignBodySchema>;

/**
 * A house campaign (staff, docs/decisions/0283): the same fields, but the budget is optional (null: no
 * limit) and is counted, never paid.
 */
export const createHouseCampaignBodySchema = campaignFieldsSchema
  .extend({ budgetCents: cents('Budget', AD_MIN_BUDGET_CENTS, AD_MAX_BUDGET_CENTS).nullable().default(null) })
  .superRefine(campaignRules);
export type CreateHouseCampaignBody = z.input<typeof createHouseCampaignBodySchema>;

export const campaignIdParamsSchema = uuidParamsSchema('Unknown campaign');
export const creativeParamsSchema = z.object({ id: uuidSchema, creativeId: uuidSchema });
export const rejectCreativeBodySchema = z.object({
  reason: multiline(
    z
      .string({ error: 'Give a reason' })
      .trim()
      .min(3, 'Give a reason')
      .max(AD_REJECT_REASON_MAX, `At most ${AD_REJECT_REASON_MAX} characters`),
  ),
});

export const AD_REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
/** What the advertiser sees: in review, scheduled, running, paused, or ended. */
export const CAMPAIGN_STATES = ['in-review', 'scheduled', 'running', 'paused', 'ended'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const creativeSchema = z.object({
  _id: z.string(),
  kind: z.enum(AD_KINDS),
  title: z.string(),
  body: z.string(),
  imageUrl: z.string().nullable(),
  imageAlt: z.string(),
  targetUrl: z.string(),
  reviewStatus: z.enum(AD_REVIEW_STATUSES),
  reviewReason: z.string().nullable(),
});
export type Creative = z.infer<typeof creativeSchema>;

export const campaignSchema = z.object({
  _id: z.string(),
  /** Null for a house campaign (no account pays for it). */
  ownerId: z.string().nullable(),
  /** The owner, or for a house campaign the admin who created it (null once that account is gone). */
  ownerName: z.string().nullable(),
  /** Run by staff for the house: no balance reserved, no ledger entry, served only where no paid campaign is (docs/decisions/0283). */
  house: z.boolean(),
  name: z.string(),
  placements: z.array(adPlacementSchema),
  startsAt: z.string(),
  endsAt: z.string(),
  priceModel: z.enum(AD_PRICE_MODELS),
  priceCents: z.number().int(),
  /** Null: a house campaign without a budget. */
  budgetCents: z.number().int().nullable(),
  dailyBudgetCents: z.number().int().nullable(),
  frequencyCap: z.number().int().nullable(),
  /** Spent so far (for a house campaign: counted at its price, never paid), in thousandths of a cent (an impression under CPM can cost less than a cent). */
  spentMillicents: z.number().int(),
  remainingMillicents: z.number().int().nullable(),
  status: z.enum(['active', 'paused', 'ended']),
  state: z.enum(CAMPAIGN_STATES),
  endReason: z.string().nullable(),
  refundedCents: z.number().int().nullable(),
  endedAt: z.string().nullable(),
  createdAt: z.string(),
  creatives: z.array(creativeSchema),
});
export type Campaign = z.infer<typeof campaignSchema>;
export const campaignResponseSchema = z.object({ campaign: campaignSchema });
export const campaignListResponseSchema = z.object({ campaigns: z.array(campaignSchema) });

export const reviewItemSchema = z.object({
  creative: creativeSchema,
  campaignId: z.string(),
  campaignName: z.string(),
  ownerName: z.string(),
  placements: z.array(adPlacementSchema),
  submittedAt: z.string(),
});
export type ReviewItem = z.infer<typeof reviewItemSchema>;
export const reviewQueueResponseSchema = z.object({ items: z.array(reviewItemSchema) });
export const reviewDecisionResponseSchema = z.object({ creative: creativeSchema, campaign: campaignSchema });

export const campaignReportQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(AD_MAX_CAMPAIGN_DAYS).default(30),
});
export const campaignReportRowSchema = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  creativeId: z.string(),
  creativeTitle: z.string(),
  served: z.number().int(),
  viewable: z.number().int(),
  /** Impressions refused as invalid traffic (bots, repeats, no served ad, over the cap): never charged. */
  invalid: z.number().int(),
  /**
   * Why those were refused; the four add up to `invalid`. `robot`: a known robot's user agent;
   * `overCap`: past the campaign's frequency cap for that viewer that day; `unmatched`: no serve to that
   * viewer within the window, or already counted within it; `unrecorded`: tallied before reasons were kept.
   */
  invalidReasons: z.object({
    robot: z.number().int(),
    overCap: z.number().int(),
    unmatched: z.number().int(),
    unrecorded: z.number().int(),
  }),
  clicks: z.number().int(),
  /** clicks / viewable, 0 without viewable impressions. */
  clickThroughRate: z.number(),
  spendMillicents: z.number().int(),
});
export type CampaignReportRow = z.infer<typeof campaignReportRowSchema>;
export const campaignReportResponseSchema = z.object({ campaign: campaignSchema, rows: z.array(campaignReportRowSchema) });
export type CampaignReport = z.infer<typeof campaignReportResponseSchema>;
