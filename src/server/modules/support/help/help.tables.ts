import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '#server/modules/users/users.tables.js';

/**
 * Help-centre articles (docs/decisions/0290). The table also has two generated tsvector columns with
 * GIN indexes, written in migration 0029: `search` (stemmed, title weighted first) and `search_words`
 * (the words as written, for prefixes). They are read only through SQL in help.service.ts, so they
 * are not declared here.
 */
export const helpArticles = pgTable(
  'help_articles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    category: text('category').notNull(),
    /** Markdown as staff wrote it; rendered by help-markdown.ts with raw HTML off. */
    body: text('body').notNull(),
    status: text('status').notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    helpfulCount: integer('helpful_count').notNull().default(0),
    notHelpfulCount: integer('not_helpful_count').notNull().default(0),
  },
  (t) => [
    index('help_articles_status_idx').on(t.status, t.category),
    check('help_articles_status_known', sql`${t.status} in ('draft', 'published')`),
  ],
);

/** One vote per article and voter (a user or guest id, or a hash of the address for visitors). */
export const helpVotes = pgTable(
  'help_votes',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => helpArticles.id, { onDelete: 'cascade' }),
    voter: text('voter').notNull(),
    helpful: boolean('helpful').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.articleId, t.voter] })],
);

/**
 * Someone writing a ticket opened a suggested article. It counts as a ticket avoided when the same
 * requester sent no ticket in the day after (help.service.ts works it out when staff read it).
 */
export const helpDeflections = pgTable(
  'help_deflections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    articleId: uuid('article_id')
      .notNull()
      .references(() => helpArticles.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    guestId: text('guest_id'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('help_deflections_article_idx').on(t.articleId, t.openedAt),
    check('help_deflections_one_requester', sql`(${t.userId} IS NULL) <> (${t.guestId} IS NULL)`),
  ],
);

/**
 * An article in another language than English (docs/decisions/0328): one per article and language, read
 * by the public routes when the reader asks for that language; an article without one is read in English.
 */
export const helpArticleTranslations = pgTable(
  'help_article_translations',
  {
    articleId: uuid('article_id')
      .notNull()
      .references(() => helpArticles.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull(),
    /** Markdown, as the article's own body. */
    body: text('body').notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.articleId, t.locale] }),
    check('help_article_translations_locale_known', sql`${t.locale} in ('es', 'ru', 'de')`),
  ],
);

export type HelpArticleRow = typeof helpArticles.$inferSelect;
export type HelpArticleTranslationRow = typeof helpArticleTranslations.$inferSelect;
