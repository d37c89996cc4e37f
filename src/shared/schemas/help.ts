import { z } from 'zod';
import { LOCALES } from '#shared/constants.js';
import { multiline } from './common.js';

/**
 * The help centre (docs/decisions/0290): articles staff write in Markdown, published or draft, found by
 * full-text search; suggestions while someone writes a ticket; "Was this helpful?" votes.
 */

export const HELP_TITLE_MAX = 140;
export const HELP_BODY_MAX = 20_000;
export const HELP_CATEGORY_MAX = 40;
export const HELP_QUERY_MAX = 200;
/** Up to this many articles are suggested beside a ticket's subject. */
export const HELP_SUGGESTIONS_MAX = 3;

export const HELP_ARTICLE_STATUSES = ['draft', 'published'] as const;
export type HelpArticleStatus = (typeof HELP_ARTICLE_STATUSES)[number];

/** An article's address: lower-case words joined by hyphens (`payment-stuck-in-confirming`). */
export const helpSlugSchema = z
  .string({ error: 'Enter an address' })
  .trim()
  .min(3, 'The address must be at least 3 characters')
  .max(80, 'The address must be at most 80 characters')
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lower-case letters, digits and single hyphens');

export const helpSlugParamsSchema = z.object({ slug: z.string().min(1).max(100) });

/**
 * The reader's language: an article with a translation in it is answered translated, any other in
 * English (the language staff write in). Without it, every article is English, as always.
 */
export const helpLocaleField = z.enum(LOCALES).optional();

export const helpSearchQuerySchema = z.object({
  q: z.string().trim().max(HELP_QUERY_MAX, `Search at most ${HELP_QUERY_MAX} characters`).optional(),
  category: z.string().trim().max(HELP_CATEGORY_MAX).optional(),
  locale: helpLocaleField,
});
export type HelpSearchQuery = z.infer<typeof helpSearchQuerySchema>;

export const helpSuggestQuerySchema = z.object({
  q: z.string().trim().min(1, 'Type a few words').max(HELP_QUERY_MAX, `Search at most ${HELP_QUERY_MAX} characters`),
  locale: helpLocaleField,
});

export const helpArticleQuerySchema = z.object({ locale: helpLocaleField });
export type HelpArticleQuery = z.infer<typeof helpArticleQuerySchema>;

export const helpArticleSummarySchema = z.object({
  slug: z.string(),
  title: z.string(),
  category: z.string(),
  /** The first words of the article, as plain text. */
  excerpt: z.string(),
  updatedAt: z.string(),
});
export type HelpArticleSummary = z.infer<typeof helpArticleSummarySchema>;

export const helpArticleListResponseSchema = z.object({
  articles: z.array(helpArticleSummarySchema),
  /** Every category that has a published article, in alphabetical order. */
  categories: z.array(z.string()),
});
export type HelpArticleListResponse = z.infer<typeof helpArticleListResponseSchema>;

export const helpSuggestResponseSchema = z.object({ articles: z.array(helpArticleSummarySchema) });
export type HelpSuggestResponse = z.infer<typeof helpSuggestResponseSchema>;

export const helpArticleResponseSchema = z.object({
  slug: z.string(),
  title: z.string(),
  category: z.string(),
  /** The Markdown rendered by the server: no raw HTML from the author, links checked. */
  html: z.string(),
  updatedAt: z.string(),
});
export type HelpArticleResponse = z.infer<typeof helpArticleResponseSchema>;

export const helpVoteBodySchema = z.object({ helpful: z.boolean({ error: 'Say whether it helped' }) });
export type HelpVoteBody = z.infer<typeof helpVoteBodySchema>;

export const helpDeflectionBodySchema = z.object({ slug: z.string().min(1).max(100) });
export type HelpDeflectionBody = z.infer<typeof helpDeflectionBodySchema>;

// ---- Staff ------------------------------------------------------------------------------------------

const categoryField = z
  .string({ error: 'Enter a category' })
  .trim()
  .min(1, 'Enter a category')
  .max(HELP_CATEGORY_MAX, `A category is at most ${HELP_CATEGORY_MAX} characters`);

export const helpArticleWriteBodySchema = z.object({
  slug: helpSlugSchema,
  title: z
    .string({ error: 'Enter a title' })
    .trim()
    .min(3, 'The title must be at least 3 characters')
    .max(HELP_TITLE_MAX, `The title must be at most ${HELP_TITLE_MAX} characters`),
  category: categoryField,
  body: multiline(
    z
      .string({ error: 'Write the article' })
      .trim()
      .min(1, 'Write the article')
      .max(HELP_BODY_MAX, `An article is at most ${HELP_BODY_MAX} characters`),
  ),
  status: z.enum(HELP_ARTICLE_STATUSES, { error: 'Choose draft or published' }),
});
export type HelpArticleWriteBody = z.infer<typeof helpArticleWriteBodySchema>;

export const staffHelpArticleSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  category: z.string(),
  body: z.string(),
  status: z.enum(HELP_ARTICLE_STATUSES),
  publishedAt: z.string().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  helpfulCount: z.number().int(),
  notHelpfulCount: z.number().int(),
  /** Times someone writing a ticket opened this article from the suggestions. */
  suggestedOpens: z.number().int(),
  /** Of those, how many did not send the ticket afterwards (a ticket avoided). */
  ticketsAvoided: z.number().int(),
});
export type StaffHelpArticle = z.infer<typeof staffHelpArticleSchema>;

export const staffHelpArticleListResponseSchema = z.object({
  articles: z.array(staffHelpArticleSchema),
  totals: z.object({ suggestedOpens: z.number().int(), ticketsAvoided: z.number().int() }),
});
export type StaffHelpArticleListResponse = z.infer<typeof staffHelpArticleListResponseSchema>;

export const staffHelpArticleResponseSchema = z.object({ article: staffHelpArticleSchema });
export type StaffHelpArticleResponse = z.infer<typeof staffHelpArticleResponseSchema>;

export const helpPreviewBodySchema = z.object({
  body: multiline(z.string().max(HELP_BODY_MAX, `An article is at most ${HELP_BODY_MAX} characters`)),
});
export const helpPreviewResponseSchema = z.object({ html: z.string() });

// ---- Translations (docs/decisions/0328) ---------------------------------------------------------------

/** The languages an article may be translated into: every one but English, which the article itself is. */
export const HELP_TRANSLATION_LOCALES = ['es', 'ru', 'de'] as const satisfies readonly (typeof LOCALES)[number][];
export type HelpTranslationLocale = (typeof HELP_TRANSLATION_LOCALES)[number];

export const helpTranslationParamsSchema = z.object({
  id: z.string().min(1).max(100),
  locale: z.enum(HELP_TRANSLATION_LOCALES),
});

export const helpTranslationWriteBodySchema = helpArticleWriteBodySchema.pick({ title: true, body: true });
export type HelpTranslationWriteBody = z.infer<typeof helpTranslationWriteBodySchema>;

export const helpTranslationSchema = z.object({
  locale: z.enum(HELP_TRANSLATION_LOCALES),
  title: z.string(),
  body: z.string(),
  updatedAt: z.string(),
});
export type HelpTranslation = z.infer<typeof helpTranslationSchema>;

export const helpTranslationListResponseSchema = z.object({ translations: z.array(helpTranslationSchema) });
export type HelpTranslationListResponse = z.infer<typeof helpTranslationListResponseSchema>;

export const helpTranslationResponseSchema = z.object({ translation: helpTranslationSchema });
export type HelpTranslationResponse = z.infer<typeof helpTranslationResponseSchema>;
