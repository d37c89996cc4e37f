import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Locale } from '#shared/constants.js';
import type {
  HelpArticleListResponse,
  HelpArticleResponse,
  HelpArticleSummary,
  HelpArticleWriteBody,
  HelpSearchQuery,
  StaffHelpArticle,
  StaffHelpArticleListResponse,
  HelpTranslationLocale,
} from '#shared/schemas/help.js';
import { HELP_SUGGESTIONS_MAX } from '#shared/schemas/help.js';
import { isUuid } from '#shared/schemas/common.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { conflict, notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { helpExcerpt, renderHelpMarkdown } from './help-markdown.js';
import { HelpTranslations, inLanguage, translated } from './help-translations.js';
import { helpArticles, helpArticleTranslations, helpDeflections, helpVotes, type HelpArticleRow } from './help.tables.js';

/** A suggestion opened while writing a ticket counts as a ticket avoided when no ticket follows within this. */
export const DEFLECTION_WINDOW_HOURS = 24;

export interface HelpDeps {
  db: Db;
}

/** Who asks: a signed-in user, a guest, or a visitor known only by address (for votes). */
export type HelpRequester = { userId: string; guestId: null } | { userId: null; guestId: string };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toSummary(row: Pick<HelpArticleRow, 'slug' | 'title' | 'category' | 'body' | 'updatedAt'>): HelpArticleSummary {
  return { slug: row.slug, title: row.title, category: row.category, excerpt: helpExcerpt(row.body), updatedAt: iso(row.updatedAt)! };
}

/**
 * A person's words as a full-text query: each word is matched as a prefix ("confirm" finds
 * "confirming") and any word may match, so "payment stuck" still finds an article with only one of
 * them; ranking puts the articles that match more, and in the title, first. Characters that mean
 * something to tsquery are dropped, so nothing typed can make the query fail.
 */
export function toPrefixQuery(text: string): string | null {
  const words = text
    .toLowerCase()
    .normalize('NFKC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2)
    .slice(0, 12);
  if (words.length === 0) return null;
  return words.map((w) => `${w}:*`).join(' | ');
}

export class HelpService {
  /** Staff's translations of the articles (docs/decisions/0328). */
  readonly translations: HelpTranslations;

  constructor(private readonly deps: HelpDeps) {
    this.translations = new HelpTranslations(deps.db);
  }

  /** Published articles, searched and ranked when `q` is given, newest first otherwise. */
  async listPublished(query: HelpSearchQuery): Promise<HelpArticleListResponse> {
    const db = this.deps.db;
    const categoryRows = await db
      .selectDistinct({ category: helpArticles.category })
      .from(helpArticles)
      .where(eq(helpArticles.status, 'published'))
      .orderBy(helpArticles.category);
    const categories = categoryRows.map((r) => r.category);
    const category = query.category ? query.category : null;
    const tsquery = query.q ? toPrefixQuery(query.q) : null;
    if (query.q && !tsquery) return { articles: [], categories };
    const locale = translated(query.locale);
    if (locale) {
      const articles = tsquery ? await this.searchIn(locale, tsquery, category, 50) : await this.listAllIn(locale, category);
      return { articles, categories };
    }
    const articles = tsquery ? await this.search(tsquery, category, 50) : await this.listAll(category);
    return { articles, categories };
  }

  /**
   * The published articles in `locale`: each one's translation where it has one, English otherwise
   * (docs/decisions/0328). In the order of the English list (category, then the English title).
   */
  private async listAllIn(locale: HelpTranslationLocale, category: string | null): Promise<HelpArticleSummary[]> {
    const rows = await this.deps.db
      .select({ article: helpArticles, translation: helpArticleTranslations })
      .from(helpArticles)
      .leftJoin(
        helpArticleTranslations,
        and(eq(helpArticleTranslations.articleId, helpArticles.id), eq(helpArticleTranslations.locale, locale)),
      )
      .where(and(eq(helpArticles.status, 'published'), category === null ? undefined : eq(helpArticles.category, category)))
      .orderBy(helpArticles.category, helpArticles.title);
    return rows.map(({ article, translation }) => toSummary(inLanguage(article, translation)));
  }

  /**
   * The search of `search` for a reader of `locale`: the English words match as they always do, and a
   * translation's words match as written (by prefix, no stemming: the generated search columns are
   * English's), computed per row, which is cheap at a help centre's size.
   */
  private async searchIn(
    locale: HelpTranslationLocale,
    tsquery: string,
    category: string | null,
    limit: number,
  ): Promise<HelpArticleSummary[]> {
    const result = await this.deps.db.execute<{
      slug: string;
      title: string;
      category: string;
      body: string;
      updated_at: Date;
    }>(sql`
      SELECT a.slug, coalesce(t.title, a.title) AS title, a.category, coalesce(t.body, a.body) AS body,
        coalesce(t.updated_at, a.updated_at) AS updated_at
      FROM help_articles a
      LEFT JOIN help_article_translations t ON t.article_id = a.id AND t.locale = ${locale},
        to_tsquery('english', ${tsquery}) AS q, to_tsquery('simple', ${tsquery}) AS w
      WHERE a.status = 'published'
        AND (a.search @@ q OR a.search_words @@ w
          OR (t.article_id IS NOT NULL AND to_tsvector('simple', t.title || ' ' || t.body) @@ w))
        ${category === null ? sql`` : sql`AND a.category = ${category}`}
      ORDER BY
        CASE WHEN t.article_id IS NULL THEN 0
          ELSE 2 * ts_rank_cd(setweight(to_tsvector('simple', t.title), 'A') || to_tsvector('simple', t.body), w, 1) END
          + ts_rank_cd(a.search, q, 1) + 0.5 * ts_rank_cd(a.search_words, w, 1) DESC,
        title ASC
      LIMIT ${limit}`);
    return result.rows.map((r) => toSummary({ slug: r.slug, title: r.title, category: r.category, body: r.body, updatedAt: r.updated_at }));
  }

  private async listAll(category: string | null): Promise<HelpArticleSummary[]> {
    const rows = await this.deps.db
      .select()
      .from(helpArticles)
      .where(and(eq(helpArticles.status, 'published'), category === null ? undefined : eq(helpArticles.category, category)))
      .orderBy(helpArticles.category, helpArticles.title);
    return rows.map(toSummary);
  }

  /**
   * Two matches: the stemmed words ("expire" finds "expired") and the words as written, by prefix
   * ("confirmi" finds "confirming", which stemming alone misses); the stemmed match weighs more.
   */
  private async search(tsquery: string, category: string | null, limit: number): Promise<HelpArticleSummary[]> {
    const result = await this.deps.db.execute<{ slug: string; title: string; category: string; body: string; updated_at: Date }>(sql`
      SELECT slug, title, category, body, updated_at
      FROM help_articles, to_tsquery('english', ${tsquery}) AS q, to_tsquery('simple', ${tsquery}) AS w
      WHERE status = 'published' AND (search @@ q OR search_words @@ w) ${category === null ? sql`` : sql`AND category = ${category}`}
      ORDER BY ts_rank_cd(search, q, 1) + 0.5 * ts_rank_cd(search_words, w, 1) DESC, title ASC
      LIMIT ${limit}`);
    return result.rows.map((r) => toSummary({ slug: r.slug, title: r.title, category: r.category, body: r.body, updatedAt: r.updated_at }));
  }

  /** Up to three published articles for a ticket's subject as it is being typed. */
  async suggest(text: string, readerLocale?: Locale): Promise<HelpArticleSummary[]> {
    const tsquery = toPrefixQuery(text);
    if (!tsquery) return [];
    const locale = translated(readerLocale);
    return locale ? this.searchIn(locale, tsquery, null, HELP_SUGGESTIONS_MAX) : this.search(tsquery, null, HELP_SUGGESTIONS_MAX);
  }

  /** One published article, in `readerLocale` when it has a translation in it, in English otherwise. */
  async getPublished(slug: string, readerLocale?: Locale): Promise<HelpArticleResponse> {
    const [found] = await this.deps.db
      .select()
      .from(helpArticles)
      .where(and(eq(helpArticles.slug, slug), eq(helpArticles.status, 'published')))
      .limit(1);
    if (!found) throw notFound('There is no article at this address');
    const locale = translated(readerLocale);
    const [translation] = locale
      ? await this.deps.db
          .select()
          .from(helpArticleTranslations)
          .where(and(eq(helpArticleTranslations.articleId, found.id), eq(helpArticleTranslations.locale, locale)))
          .limit(1)
      : [];
    const row = inLanguage(found, translation ?? null);
    return { slug: row.slug, title: row.title, category: row.category, html: renderHelpMarkdown(row.body), updatedAt: iso(row.updatedAt)! };
  }

  /**
   * One vote per voter and article; voting again changes the vote. The counters move in the same
   * statement as the vote, so they always equal the votes.
   */
  async vote(slug: string, voter: string, helpful: boolean): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [article] = await tx
        .select({ id: helpArticles.id })
        .from(helpArticles)
        .where(and(eq(helpArticles.slug, slug), eq(helpArticles.status, 'published')))
        .for('update')
        .limit(1);
      if (!article) throw notFound('There is no article at this address');
      const [previous] = await tx
        .select({ helpful: helpVotes.helpful })
        .from(helpVotes)
        .where(and(eq(helpVotes.articleId, article.id), eq(helpVotes.voter, voter)))
        .limit(1);
      if (previous?.helpful === helpful) return;
      await tx
        .insert(helpVotes)
        .values({ articleId: article.id, voter, helpful })
        .onConflictDoUpdate({ target: [helpVotes.articleId, helpVotes.voter], set: { helpful, createdAt: sql`now()` } });
      const yes = (helpful ? 1 : 0) - (previous?.helpful === true ? 1 : 0);
      const no = (helpful ? 0 : 1) - (previous?.helpful === false ? 1 : 0);
      await tx
        .update(helpArticles)
        .set({ helpfulCount: sql`${helpArticles.helpfulCount} + ${yes}`, notHelpfulCount: sql`${helpArticles.notHelpfulCount} + ${no}` })
        .where(eq(helpArticles.id, article.id));
    });
  }

  /** Someone writing a ticket opened a suggested article. */
  async recordDeflection(slug: string, requester: HelpRequester): Promise<void> {
    const [article] = await this.deps.db
      .select({ id: helpArticles.id })
      .from(helpArticles)
      .where(and(eq(helpArticles.slug, slug), eq(helpArticles.status, 'published')))
      .limit(1);
    if (!article) throw notFound('There is no article at this address');
    await this.deps.db.insert(helpDeflections).values({ articleId: article.id, userId: requester.userId, guestId: requester.guestId });
  }

  // ---- Staff ----------------------------------------------------------------------------------------

  async listForStaff(): Promise<StaffHelpArticleListResponse> {
    const articles = await this.staffRows();
    return {
      articles,
      totals: {
        suggestedOpens: articles.reduce((n, a) => n + a.suggestedOpens, 0),
        ticketsAvoided: articles.reduce((n, a) => n + a.ticketsAvoided, 0),
      },
    };
  }

  async getForStaff(id: string): Promise<StaffHelpArticle> {
    if (!isUuid(id)) throw notFound('No such article');
    const [row] = await this.staffRows(id);
    if (!row) throw notFound('No such article');
    return row;
  }

  /**
   * Articles with their votes and deflections. A deflection is a ticket avoided once its window has
   * passed without a ticket from the same requester; one still inside the window counts as neither.
   */
  private async staffRows(id?: string): Promise<StaffHelpArticle[]> {
    const result = await this.deps.db.execute<{
      id: string;
      slug: string;
      title: string;
      category: string;
      body: string;
      status: 'draft' | 'published';
      published_at: Date | null;
      updated_at: Date;
      created_at: Date;
      helpful_count: number;
      not_helpful_count: number;
      suggested_opens: number;
      tickets_avoided: number;
    }>(sql`
      SELECT a.id, a.slug, a.title, a.category, a.body, a.status, a.published_at, a.updated_at, a.created_at,
        a.helpful_count, a.not_helpful_count,
        (SELECT count(*)::int FROM help_deflections d WHERE d.article_id = a.id) AS suggested_opens,
        (SELECT count(*)::int FROM help_deflections d
          WHERE d.article_id = a.id
            AND d.opened_at < now() - make_interval(hours => ${DEFLECTION_WINDOW_HOURS})
            AND NOT EXISTS (
              SELECT 1 FROM tickets t
              WHERE (t.user_id = d.user_id OR t.guest_id = d.guest_id)
                AND t.created_at >= d.opened_at
                AND t.created_at < d.opened_at + make_interval(hours => ${DEFLECTION_WINDOW_HOURS})
            )) AS tickets_avoided
      FROM help_articles a
      ${id === undefined ? sql`` : sql`WHERE a.id = ${id}`}
      ORDER BY a.category, a.title`);
    return result.rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.title,
      category: r.category,
      body: r.body,
      status: r.status,
      publishedAt: iso(r.published_at),
      updatedAt: iso(r.updated_at)!,
      createdAt: iso(r.created_at)!,
      helpfulCount: r.helpful_count,
      notHelpfulCount: r.not_helpful_count,
      suggestedOpens: r.suggested_opens,
      ticketsAvoided: r.tickets_avoided,
    }));
  }

  async create(body: HelpArticleWriteBody, staffId: string): Promise<StaffHelpArticle> {
    const id = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(helpArticles)
        .values({
          ...body,
          publishedAt: body.status === 'published' ? new Date() : null,
          createdBy: staffId,
          updatedBy: staffId,
        })
        .onConflictDoNothing({ target: helpArticles.slug })
        .returning();
      if (!row) throw conflict('Another article already has this address');
      await recordAudit(tx, {
        actor: await actor(tx, staffId),
        action: 'help.article_created',
        targetType: 'help_article',
        targetId: row.id,
        after: auditView(row),
      });
      return row.id;
    });
    return this.getForStaff(id);
  }

  async update(id: string, body: HelpArticleWriteBody, staffId: string): Promise<StaffHelpArticle> {
    if (!isUuid(id)) throw notFound('No such article');
    await this.deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(helpArticles).where(eq(helpArticles.id, id)).for('update').limit(1);
      if (!current) throw notFound('No such article');
      if (body.slug !== current.slug) {
        const [taken] = await tx.select({ id: helpArticles.id }).from(helpArticles).where(eq(helpArticles.slug, body.slug)).limit(1);
        if (taken) throw conflict('Another article already has this address');
      }
      const [after] = await tx
        .update(helpArticles)
        .set({
          ...body,
          // First publication keeps its date; unpublishing clears it.
          publishedAt: body.status === 'published' ? (current.publishedAt ?? new Date()) : null,
          updatedBy: staffId,
          updatedAt: new Date(),
        })
        .where(eq(helpArticles.id, id))
        .returning();
      await recordAudit(tx, {
        actor: await actor(tx, staffId),
        action: 'help.article_updated',
        targetType: 'help_article',
        targetId: id,
        before: auditView(current),
        after: auditView(after!),
      });
    });
    return this.getForStaff(id);
  }

  preview(body: string): string {
    return renderHelpMarkdown(body);
  }
}

/** What the audit log keeps of an article: never the text itself, only its length (docs/decisions/0234). */
function auditView(row: HelpArticleRow) {
  return { title: row.title, slug: row.slug, category: row.category, status: row.status, body: { length: row.body.length } };
}

async function actor(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const user = await findUserById(db, userId);
  return { id: userId, username: user?.username ?? 'unknown' };
}

/** A visitor without a session votes by address; the hash keeps the address itself out of the table. */
export function anonymousVoter(ip: string, salt: string): string {
  return `ip:${createHash('sha256').update(`${salt}:${ip}`).digest('base64url').slice(0, 32)}`;
}
