import { useId, useState } from 'react';
import toast from 'react-hot-toast';
import {
  HELP_BODY_MAX,
  HELP_TITLE_MAX,
  type HelpArticleStatus,
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
import { helpArticlePath } from '../help-paths';
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

/**
 * The staff console's help centre (docs/decisions/0290): every article with its votes and the tickets
 * it avoided; write, preview, publish and unpublish. Every save is in the audit log.
 */
export function HelpManager() {
  const ids = useId();
  const articles = useStaffHelpArticles();
  const save = useSaveHelpArticle();
  const preview = usePreviewHelpArticle();
  const [editing, setEditing] = useState<StaffHelpArticle | null>(null);
  const [form, setForm] = useState<HelpArticleWriteBody>(EMPTY);
  const [slugTouched, setSlugTouched] = useState(false);
  const [previewHtml, setPreviewHtml] = useState<string | null>(null);
  // The server's field errors go on their fields; any other refusal is said above them.
  const editor = useForm({
    focus: false,
    action: () => save.mutateAsync({ id: editing?.id ?? null, body: form }),
    onSuccess: ({ article }) => {
      toast.success(article.status === 'published' ? `“${article.title}” is published` : `“${article.title}” is saved as a draft`);
      reset();
    },
    formError: (err, fields) => (Object.keys(fields).length ? null : err instanceof ApiError ? err.message : 'Could not save the article'),
  });

  const set = (patch: Partial<HelpArticleWriteBody>) => setForm((f) => ({ ...f, ...patch }));

  function startEdit(article: StaffHelpArticle) {
    setEditing(article);
    setForm({ slug: article.slug, title: article.title, category: article.category, body: article.body, status: article.status });
    setSlugTouched(true);
    editor.reset();
    setPreviewHtml(null);
    document.getElementById(`${ids}-title-field`)?.focus();
  }

  function reset() {
    setEditing(null);
    setForm(EMPTY);
    setSlugTouched(false);
    editor.reset();
    setPreviewHtml(null);
  }

  async function showPreview() {
    try {
      setPreviewHtml((await preview.mutateAsync(form.body)).html);
    } catch (err) {
      toast.error(errorMessage(err, 'Could not render the preview'));
    }
  }

  const categories = [...new Set((articles.data?.articles ?? []).map((a) => a.category))].sort();
  return (
    <section className="admin-panel stack" aria-labelledby={`${ids}-title`}>
      <div>
        <h2 id={`${ids}-title`}>Help centre</h2>
        <p className="muted">
          Articles anyone can read at <a href="/help">/help</a>, suggested to people while they write a ticket. A suggestion opened without
          a ticket following within a day counts as a ticket avoided.
        </p>
      </div>
      <QueryTable
        query={articles}
        label="Help articles"
        rows={(d) => d.articles}
        className="admin-table rtable"
        wrapClassName="table-wrap rtable-wrap"
        loading={<p className="muted">Loading articles…</p>}
        empty={<p className="muted">No articles yet. Write the first one below.</p>}
        failed="Could not load the articles"
        summary={(d) => (
          <p>
            Suggestions opened: <strong>{d.totals.suggestedOpens}</strong> · tickets avoided: <strong>{d.totals.ticketsAvoided}</strong>
          </p>
        )}
        columns={
          <>
            <th scope="col">Title</th>
            <th scope="col">Category</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Helpful
            </th>
            <th scope="col" className="num">
              Tickets avoided
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </>
        }
        row={(a) => (
          <tr key={a.id} data-testid="help-article-row">
            <td data-label="Title">
              {a.status === 'published' ? (
                <a href={helpArticlePath(a.slug)} target="_blank" rel="noopener">
                  {a.title}
                </a>
              ) : (
                a.title
              )}
            </td>
            <td data-label="Category">{a.category}</td>
            <td data-label="Status">
              <span className={`help-status help-status-${a.status}`}>{a.status === 'published' ? 'Published' : 'Draft'}</span>
            </td>
            <td data-label="Helpful" className="num">
              {a.helpfulCount} yes · {a.notHelpfulCount} no
            </td>
            <td data-label="Tickets avoided" className="num">
              {a.ticketsAvoided} of {a.suggestedOpens}
            </td>
            <td className="row-actions">
              <button type="button" className="btn btn-ghost btn-small" onClick={() => startEdit(a)}>
                Edit <span className="visually-hidden">{a.title}</span>
              </button>
            </td>
          </tr>
        )}
      />

      <Form form={editor} className="card stack help-editor" aria-labelledby={`${ids}-form-title`}>
        <h3 id={`${ids}-form-title`}>{editing ? `Edit “${editing.title}”` : 'Write an article'}</h3>
        {editor.formError && (
          <p className="field-error" role="alert">
            {editor.formError}
          </p>
        )}
        <TextField
          id={`${ids}-title-field`}
          label="Title"
          value={form.title}
          maxLength={HELP_TITLE_MAX}
          error={editor.errors.title}
          onChange={(e) => set({ title: e.target.value, ...(slugTouched ? {} : { slug: slugFromTitle(e.target.value) }) })}
        />
        <div className="grid help-editor-row">
          <TextField
            label="Address"
            value={form.slug}
            maxLength={80}
            error={editor.errors.slug}
            note={form.slug ? `/help/${form.slug}` : 'Made from the title; lower-case words and hyphens'}
            onChange={(e) => {
              setSlugTouched(true);
              set({ slug: e.target.value });
            }}
          />
          <TextField
            label="Category"
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
            label="Status"
            value={form.status}
            error={editor.errors.status}
            onChange={(e) => set({ status: e.target.value as HelpArticleStatus })}
            options={[
              { value: 'draft', label: 'Draft (only staff see it)' },
              { value: 'published', label: 'Published' },
            ]}
          />
        </div>
        <TextareaField
          label="Article (Markdown)"
          rows={12}
          maxLength={HELP_BODY_MAX}
          value={form.body}
          error={editor.errors.body}
          note="**bold**, *italic*, lists, [links](https://…) and headings with #. HTML is shown as text."
          onChange={(e) => set({ body: e.target.value })}
        />
        <div className="cluster">
          <StatusButton busy={save.isPending} busyLabel="Saving…" className="btn btn-primary">
            {editing ? 'Save changes' : 'Save article'}
          </StatusButton>
          <button
            type="button"
            className="btn btn-secondary"
            disabled={preview.isPending || !form.body.trim()}
            onClick={() => void showPreview()}
          >
            {preview.isPending ? 'Rendering…' : 'Preview'}
          </button>
          {editing && (
            <button type="button" className="btn btn-ghost" onClick={reset}>
              Cancel
            </button>
          )}
        </div>
        {previewHtml !== null && (
          <section aria-label="Preview" className="help-preview">
            <div className="help-article-body" dangerouslySetInnerHTML={{ __html: previewHtml }} />
          </section>
        )}
      </Form>
    </section>
  );
}
