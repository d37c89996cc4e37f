import { t } from '@lingui/core/macro';
import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  HELP_BODY_MAX,
  HELP_TITLE_MAX,
  HELP_TRANSLATION_LOCALES,
  type HelpArticleStatus,
  type HelpTranslationLocale,
  type HelpTranslationWriteBody,
  type HelpArticleWriteBody,
  type StaffHelpArticle,
} from '#shared/schemas/help';
import { SelectField, TextareaField, TextField } from '#web/components/ui/forms';
import { QueryTable } from '#web/components/ui/query-table';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useStaffHelpArticles } from '../api/get-staff-help-articles';
import { usePreviewHelpArticle } from '../api/preview-help-article';
import { useSaveHelpArticle } from '../api/save-help-article';
import { useDeleteHelpTranslation, useHelpTranslations, useSaveHelpTranslation } from '../api/help-translations';
import { helpArticlePath } from '../help-paths';
import { LOCALE_NAMES, RichText, useLocale } from '#web/features/language';
import '../help.css';

const EMPTY: HelpArticleWriteBody = { slug: '', title: '', category: '', body: '', status: 'draft' };

/** "Payment stuck in confirming" → "payment-stuck-in-confirming". */
export function slugFromTitle(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

function helpfulVotes(article: StaffHelpArticle): string {
  const yes = article.helpfulCount;
  const no = article.notHelpfulCount;
  return t`${yes} yes · ${no} no`;
}

function avoidedOf(article: StaffHelpArticle): string {
  const avoided = article.ticketsAvoided;
  const opened = article.suggestedOpens;
  return t`${avoided} of ${opened}`;
}

function editTitle(article: StaffHelpArticle): string {
  const title = article.title;
  return t`Edit “${title}”`;
}

/** The language being edited: the article itself (English) or one of its translations (docs/decisions/0328). */
type EditedLanguage = 'en' | HelpTranslationLocale;

/**
 * The staff console's help centre (docs/decisions/0290): every article with its votes and the tickets
 * it avoided; write, preview, publish and unpublish. Every save is in the audit log.
 */
export function HelpManager() {
  const ids = useId();
  useLocale();
  const articles = useStaffHelpArticles();
  const save = useSaveHelpArticle();
  const preview = usePreviewHelpArticle();
  const [editing, setEditing] = useState<StaffHelpArticle | null>(null);
  const [form, setForm] = useState<HelpArticleWriteBody>(EMPTY);
  const [slugTouched, setSlugTouched] = useState(false);
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  const [language, setLanguage] = useState<EditedLanguage>('en');
  // What is typed into each translation; a language not typed into yet shows its saved translation.
  const [drafts, setDrafts] = useState<Partial<Record<HelpTranslationLocale, HelpTranslationWriteBody>>>({});
  const translations = useHelpTranslations(editing?.id ?? null);
  const saveTranslation = useSaveHelpTranslation();
  const deleteTranslation = useDeleteHelpTranslation();
  const saved = language === 'en' ? undefined : translations.data?.translations.find((x) => x.locale === language);
  const translation: HelpTranslationWriteBody | null =
    language === 'en' ? null : (drafts[language] ?? (saved ? { title: saved.title, body: saved.body } : { title: '', body: '' }));
  const languageName = language === 'en' ? '' : LOCALE_NAMES[language];
  // The server's field errors go on their fields; any other refusal is said above them.
  const editor = useForm({
    focus: false,
    action: async () =>
      editing && translation && language !== 'en'
        ? {
            kind: 'translation' as const,
            translation: (await saveTranslation.mutateAsync({ id: editing.id, locale: language, body: translation })).translation,
          }
        : { kind: 'article' as const, article: (await save.mutateAsync({ id: editing?.id ?? null, body: form })).article },
    onSuccess: (result) => {
      if (result.kind === 'translation') {
        const name = LOCALE_NAMES[result.translation.locale];
        toast.success(t`The ${name} translation is saved`);
        return;
      }
      const title = result.article.title;
      toast.success(result.article.status === 'published' ? t`“${title}” is published` : t`“${title}” is saved as a draft`);
      reset();
    },
    formError: (err, fields) =>
      Object.keys(fields).length ? null : err instanceof ApiError ? errorMessage(err, err.message) : t`Could not save the article`,
  });

  const set = (patch: Partial<HelpArticleWriteBody>) => setForm((f) => ({ ...f, ...patch }));
  const setText = (patch: Partial<HelpTranslationWriteBody>) => {
    if (language === 'en') set(patch);
    else if (translation) setDrafts((d) => ({ ...d, [language]: { ...translation, ...patch } }));
  };
  const text = translation ?? { title: form.title, body: form.body };

  function chooseLanguage(next: EditedLanguage) {
    setLanguage(next);
    editor.reset();
    setPreviewHtml(null);
  }

  async function removeTranslation() {
    if (!editing || language === 'en') return;
    const name = LOCALE_NAMES[language];
    try {
      await deleteTranslation.mutateAsync({ id: editing.id, locale: language });
      setDrafts((d) => {
        const next = { ...d };
        delete next[language];
        return next;
      });
      toast.success(t`The ${name} translation is removed`);
    } catch (err) {
      toast.error(errorMessage(err, t`Could not remove the translation`));
    }
  }

  function startEdit(article: StaffHelpArticle) {
    setEditing(article);
    setForm({ slug: article.slug, title: article.title, category: article.category, body: article.body, status: article.status });
    setSlugTouched(true);
    setLanguage('en');
    setDrafts({});
    editor.reset();
    setPreviewHtml(null);
    document.getElementById(`${ids}-title-field`)?.focus();
  }

  function reset() {
    setEditing(null);
    setForm(EMPTY);
    setSlugTouched(false);
    setLanguage('en');
    setDrafts({});
    editor.reset();
    setPreviewHtml(null);
  }

  async function showPreview() {
    try {
      setPreviewHtml((await preview.mutateAsync(text.body)).html);
    } catch (err) {
      toast.error(errorMessage(err, t`Could not render the preview`));
    }
  }

  const categories = [...new Set((articles.data?.articles ?? []).map((a) => a.category))].sort();
  return (
    <section className="admin-panel stack" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`}>{t`Help centre`}</h2>
        <p className="muted">
          <RichText
            message={t`Articles anyone can read at <0>/help</0>, suggested to people while they write a ticket. A suggestion opened without a ticket following within a day counts as a ticket avoided.`}
            elements={[<a key="help" href="/help" />]}
          />
        </p>
      </div>
      <QueryTable
        query={articles}
        label={t`Help articles`}
        rows={(d) => d.articles}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        loading={<p className="muted">{t`Loading articles…`}</p>}
        empty={<p className="muted">{t`No articles yet. Write the first one below.`}</p>}
        failed={t`Could not load the articles`}
        summary={(d) => (
          <p>
            {t`Suggestions opened:`} <strong>{d.totals.suggestedOpens}</strong> · {t`tickets avoided:`}{' '}
            <strong>{d.totals.ticketsAvoided}</strong>
          </p>
        )}
        columns={
          <>
            <th scope="col">{t`Title`}</th>
            <th scope="col">{t`Category`}</th>
            <th scope="col">{t`Status`}</th>
            <th scope="col" className="num">
              {t`Helpful`}
            </th>
            <th scope="col" className="num">
              {t`Tickets avoided`}
            </th>
            <th scope="col">
              <span className="visually-hidden">{t`Actions`}</span>
            </th>
          </>
        }
        row={(a) => (
          <tr key={a.id} data-testid="help-article-row">
            <td data-label={t`Title`}>
              {a.status === 'published' ? (
                <a href={helpArticlePath(a.slug)} target="_blank" rel="noopener">
                  {a.title}
                </a>
              ) : (
                a.title
              )}
            </td>
            <td data-label={t`Category`}>{a.category}</td>
            <td data-label={t`Status`}>
              <span className={`help-status help-status-${a.status}`}>{a.status === 'published' ? t`Published` : t`Draft`}</span>
            </td>
            <td data-label={t`Helpful`} className="num">
              {helpfulVotes(a)}
            </td>
            <td data-label={t`Tickets avoided`} className="num">
              {avoidedOf(a)}
            </td>
            <td className="row-actions">
              <button type="button" className="btn btn-ghost btn-small" onClick={() => startEdit(a)}>
                {t`Edit`} <span className="visually-hidden">{a.title}</span>
              </button>
            </td>
          </tr>
        )}
      />

      <Form form={editor} className="card stack help-editor" aria-labelledby={`${ids}-form-title`}>
        <h3 id={`${ids}-form-title`}>{editing ? editTitle(editing) : t`Write an article`}</h3>
        {editor.formError && (
          <p className="field-error" role="alert">
            {editor.formError}
          </p>
        )}
        {editing && (
          <SelectField
            label={t`Article language`}
            value={language}
            note={
              language === 'en'
                ? t`Readers of another language see its translation where there is one, and this English text otherwise.`
                : t`Readers who chose ${languageName} see this translation; the address, category and status are the article's.`
            }
            onChange={(e) => chooseLanguage(e.target.value as EditedLanguage)}
            options={[
              { value: 'en', label: t`English (the article)` },
              ...HELP_TRANSLATION_LOCALES.map((l) => {
                const name = LOCALE_NAMES[l];
                const has = translations.data?.translations.some((x) => x.locale === l);
                return { value: l, label: has ? name : t`${name} (no translation yet)` };
              }),
            ]}
          />
        )}
        <TextField
          id={`${ids}-title-field`}
          label={t`Title`}
          value={text.title}
          maxLength={HELP_TITLE_MAX}
          error={editor.errors.title}
          onChange={(e) =>
            language === 'en'
              ? set({ title: e.target.value, ...(slugTouched ? {} : { slug: slugFromTitle(e.target.value) }) })
              : setText({ title: e.target.value })
          }
        />
        {language === 'en' && (
          <div className="grid help-editor-row">
            <TextField
              label={t`Address`}
              value={form.slug}
              maxLength={80}
              error={editor.errors.slug}
              note={form.slug ? `/help/${form.slug}` : t`Made from the title; lower-case words and hyphens`}
              onChange={(e) => {
                setSlugTouched(true);
                set({ slug: e.target.value });
              }}
            />
            <TextField
              label={t`Category`}
              value={form.category}
              maxLength={40}
              list={`${ids}-categories`}
              error={editor.errors.category}
              onChange={(e) => set({ category: e.target.value })}
            />
            <datalist id={`${ids}-categories`}>
              {categories.map((c) => (
                <option key={c} value={c} />
              ))}
            </datalist>
            <SelectField
              label={t`Status`}
              value={form.status}
              error={editor.errors.status}
              onChange={(e) => set({ status: e.target.value as HelpArticleStatus })}
              options={[
                { value: 'draft', label: t`Draft (only staff see it)` },
                { value: 'published', label: t`Published` },
              ]}
            />
          </div>
        )}
        <TextareaField
          label={t`Article (Markdown)`}
          rows={12}
          maxLength={HELP_BODY_MAX}
          value={text.body}
          error={editor.errors.body}
          note={t`**bold**, *italic*, lists, [links](https://…) and headings with #. HTML is shown as text.`}
          onChange={(e) => setText({ body: e.target.value })}
        />
        <div className="cluster">
          <StatusButton busy={save.isPending || saveTranslation.isPending} busyLabel={t`Saving…`} className="btn btn-primary">
            {language !== 'en' ? t`Save the translation` : editing ? t`Save changes` : t`Save article`}
          </StatusButton>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={preview.isPending || !text.body.trim()}
            onClick={() => void showPreview()}
          >
            {preview.isPending ? t`Rendering…` : t`Preview`}
          </button>
          {saved && (
            <button type="button" className="btn btn-ghost" disabled={deleteTranslation.isPending} onClick={() => void removeTranslation()}>
              {t`Remove the translation`}
            </button>
          )}
          {editing && (
            <button type="button" className="btn btn-ghost" onClick={reset}>
              {t`Cancel`}
            </button>
          )}
        </div>
        {previewHtml !== null && (
          <section aria-label={t`Preview`} className="help-preview">
            <div className="help-article-body" dangerouslySetInnerHTML={{ __html: previewHtml }} />
          </section>
        )}
      </Form>
    </section>
  );
}
