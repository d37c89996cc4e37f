import { and, eq, sql } from 'drizzle-orm';
import type { Locale } from '#shared/constants.js';
import { isUuid } from '#shared/schemas/common.js';
import type { HelpTranslation, HelpTranslationLocale, HelpTranslationWriteBody } from '#shared/schemas/help.js';
import type { Db, DbOrTx } from '#server/db/client.js';
import { notFound } from '#server/errors.js';
import { recordAudit } from '#server/modules/audit/audit.service.js';
import { findUserById } from '#server/modules/users/users.service.js';
import { helpArticles, helpArticleTranslations, type HelpArticleRow, type HelpArticleTranslationRow } from './help.tables.js';

const iso = (d: Date | string) => new Date(d).toISOString();

/**
 * Help articles in other languages than English (docs/decisions/0328): staff write one translation per
 * article and language (es, ru, de); each change is audited as the article's own changes are.
 */
export class HelpTranslations {
  constructor(private readonly db: Db) {}

  async list(id: string): Promise<HelpTranslation[]> {
    if (!isUuid(id)) throw notFound('No such article');
    const [article] = await this.db.select({ id: helpArticles.id }).from(helpArticles).where(eq(helpArticles.id, id)).limit(1);
    if (!article) throw notFound('No such article');
    const rows = await this.db
      .select()
      .from(helpArticleTranslations)
      .where(eq(helpArticleTranslations.articleId, id))
      .orderBy(helpArticleTranslations.locale);
    return rows.map(toTranslation);
  }

  /** Writes an article's translation into `locale`, new or changed; audited as the article's changes are. */
  async put(id: string, locale: HelpTranslationLocale, body: HelpTranslationWriteBody, staffId: string): Promise<HelpTranslation> {
    if (!isUuid(id)) throw notFound('No such article');
    const row = await this.db.transaction(async (tx) => {
      const [article] = await tx.select({ id: helpArticles.id }).from(helpArticles).where(eq(helpArticles.id, id)).for('update').limit(1);
      if (!article) throw notFound('No such article');
      const [before] = await tx
        .select()
        .from(helpArticleTranslations)
        .where(and(eq(helpArticleTranslations.articleId, id), eq(helpArticleTranslations.locale, locale)))
        .limit(1);
      const [written] = await tx
        .insert(helpArticleTranslations)
        .values({ articleId: id, locale, title: body.title, body: body.body, updatedBy: staffId })
        .onConflictDoUpdate({
          target: [helpArticleTranslations.articleId, helpArticleTranslations.locale],
          set: { title: body.title, body: body.body, updatedBy: staffId, updatedAt: sql`now()` },
        })
        .returning();
      await recordAudit(tx, {
        actor: await actor(tx, staffId),
        action: 'help.translation_saved',
        targetType: 'help_article',
        targetId: id,
        ...(before ? { before: translationAuditView(before) } : {}),
        after: translationAuditView(written!),
      });
      return written!;
    });
    return toTranslation(row);
  }

  /** Removes an article's translation into `locale`: readers of that language read the English again. */
  async remove(id: string, locale: HelpTranslationLocale, staffId: string): Promise<void> {
    if (!isUuid(id)) throw notFound('No such article');
    await this.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(helpArticleTranslations)
        .where(and(eq(helpArticleTranslations.articleId, id), eq(helpArticleTranslations.locale, locale)))
        .returning();
      if (!removed) throw notFound('This article has no translation in this language');
      await recordAudit(tx, {
        actor: await actor(tx, staffId),
        action: 'help.translation_deleted',
        targetType: 'help_article',
        targetId: id,
        before: translationAuditView(removed),
      });
    });
  }
}

/** The reader's language when an article may be translated into it; English and no language are null. */
export function translated(locale: Locale | undefined): HelpTranslationLocale | null {
  return locale === undefined || locale === 'en' ? null : locale;
}

/** An article as a reader of a language reads it: its translation's title and body when it has one. */
export function inLanguage(article: HelpArticleRow, translation: HelpArticleTranslationRow | null): HelpArticleRow {
  return translation ? { ...article, title: translation.title, body: translation.body, updatedAt: translation.updatedAt } : article;
}

function toTranslation(row: HelpArticleTranslationRow): HelpTranslation {
  return { locale: row.locale as HelpTranslationLocale, title: row.title, body: row.body, updatedAt: iso(row.updatedAt) };
}

/** As auditView: the translation's language and title, and the length of its text only. */
function translationAuditView(row: HelpArticleTranslationRow) {
  return { locale: row.locale, title: row.title, body: { length: row.body.length } };
}

async function actor(db: DbOrTx, userId: string): Promise<{ id: string; username: string }> {
  const user = await findUserById(db, userId);
  return { id: userId, username: user?.username ?? 'unknown' };
}
