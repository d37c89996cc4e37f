import { plural, t } from '@lingui/core/macro';
import { useEffect, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { paths } from '#shared/routes';
import { PageHeader } from '#web/components/ui/page-header';
import { QueryState } from '#web/components/ui/query-state';
import { Form, useForm } from '#web/components/ui/use-form';
import { usePageMeta } from '#web/components/use-page-meta';
import { errorMessage } from '#web/lib/api-client';
import { formatDate } from '#web/lib/format';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { RichText, useLocale } from '#web/features/language';
import { useHelpArticle } from '../api/get-help-article';
import { useHelpArticles } from '../api/get-help-articles';
import { useVoteHelpArticle } from '../api/vote-help-article';
import { helpArticlePath } from '../help-paths';
import '../help.css';

const SUPPORT_PATH = `${paths.dashboard}/support`;

/** /help lists and searches the articles; /help/:slug shows one (docs/decisions/0290). */
export default function HelpPage() {
  const slug = (useParams()['*'] ?? '').replace(/\/+$/, '');
  return slug ? <HelpArticleView slug={slug} /> : <HelpIndex />;
}

function HelpIndex() {
  useLocale();
  usePageMeta(t`Help centre`, t`Answers to the questions people ask most about payments, exchanges, rewards and account security.`);
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const category = params.get('category') ?? '';
  const [typed, setTyped] = useState(q);
  const debounced = useDebouncedValue(typed.trim(), 250);
  const articles = useHelpArticles(q, category);

  // The search lives in the address, so results can be shared and the back button works.
  useEffect(() => {
    if (debounced === q) return;
    const next = new URLSearchParams(params);
    if (debounced) next.set('q', debounced);
    else next.delete('q');
    setParams(next, { replace: true });
  }, [debounced, q, params, setParams]);

  function choose(next: string) {
    const nextParams = new URLSearchParams(params);
    if (next) nextParams.set('category', next);
    else nextParams.delete('category');
    setParams(nextParams);
  }

  // Search now, without waiting for the debounce.
  const search = useForm({
    focus: false,
    action: () => {
      const next = new URLSearchParams(params);
      if (typed.trim()) next.set('q', typed.trim());
      else next.delete('q');
      setParams(next, { replace: true });
    },
  });

  const categories = articles.data?.categories ?? [];
  return (
    <div className="page help-page stack">
      <PageHeader eyebrow={t`Help centre`} title={t`How can we help?`}>
        <p>{t`Answers to the questions people ask us most. Can’t find yours? Our support team is one ticket away.`}</p>
      </PageHeader>

      <Form form={search} noValidate={false} role="search" className="help-search">
        <label htmlFor="help-search-input">{t`Search the help centre`}</label>
        <div className="cluster help-search-row">
          <input
            id="help-search-input"
            type="search"
            value={typed}
            placeholder={t`e.g. payment stuck in confirming`}
            autoComplete="off"
            maxLength={200}
            onChange={(e) => setTyped(e.target.value)}
          />
          <button type="submit" className="btn btn-primary">
            {t`Search`}
          </button>
        </div>
      </Form>

      {categories.length > 0 && (
        <nav aria-label={t`Categories`} className="cluster help-categories">
          <button type="button" className="btn btn-small btn-secondary" aria-pressed={category === ''} onClick={() => choose('')}>
            {t`All`}
          </button>
          {categories.map((c) => (
            <button key={c} type="button" className="btn btn-small btn-secondary" aria-pressed={category === c} onClick={() => choose(c)}>
              {c}
            </button>
          ))}
        </nav>
      )}

      <section aria-labelledby="help-results-title" aria-busy={articles.isFetching}>
        <h2 id="help-results-title" className="visually-hidden">
          {q ? t`Articles matching “${q}”` : t`Articles`}
        </h2>
        <p className="visually-hidden" aria-live="polite">
          {articles.data && !articles.isFetching
            ? plural(articles.data.articles.length, { one: '# article found', other: '# articles found' })
            : ''}
        </p>
        <QueryState
          data={articles.data}
          loading={<p className="muted">{t`Loading articles…`}</p>}
          error={articles.error ? errorMessage(articles.error, t`Could not load the help centre.`) : null}
          onRetry={() => void articles.refetch()}
          isEmpty={(d) => d.articles.length === 0}
          empty={
            <div className="card help-empty">
              <p>{q ? t`No article matches “${q}”.` : t`There are no articles here yet.`}</p>
              <p>
                <RichText
                  message={t`<0>Ask our support team</0>: we answer every ticket.`}
                  elements={[<Link key="support" to={SUPPORT_PATH} />]}
                />
              </p>
            </div>
          }
        >
          {(data) => (
            <ul className="help-list" aria-label={q ? t`Search results` : t`Articles`}>
              {data.articles.map((a) => (
                <li key={a.slug} className="card help-card">
                  <p className="help-card-category">{a.category}</p>
                  <h3>
                    <Link to={helpArticlePath(a.slug)}>{a.title}</Link>
                  </h3>
                  <p className="muted">{a.excerpt}</p>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </section>
    </div>
  );
}

/** The day an article was last changed, as the page has always written it ("18 November 2026"). */
const updated = (at: string) => formatDate(at.slice(0, 10));

function HelpArticleView({ slug }: { slug: string }) {
  useLocale();
  const article = useHelpArticle(slug);
  const vote = useVoteHelpArticle();
  const [voted, setVoted] = useState<boolean | null>(null);
  usePageMeta(article.data?.title ?? t`Help centre`, article.data ? `${article.data.category}: ${article.data.title}` : undefined);

  async function send(helpful: boolean) {
    try {
      await vote.mutateAsync({ slug, helpful });
      setVoted(helpful);
    } catch {
      // The error is shown from the mutation below.
    }
  }

  return (
    <div className="page help-page">
      <nav aria-label={t`Breadcrumb`} className="help-breadcrumb">
        <Link to={paths.help}>{t`Help centre`}</Link>
        {article.data && (
          <>
            <span aria-hidden="true"> › </span>
            <Link to={`${paths.help}?category=${encodeURIComponent(article.data.category)}`}>{article.data.category}</Link>
          </>
        )}
      </nav>
      <QueryState
        data={article.data}
        loading={<p className="muted">{t`Loading the article…`}</p>}
        error={article.error ? errorMessage(article.error, t`Could not load this article.`) : null}
        onRetry={article.error && (article.error as { status?: number }).status === 404 ? undefined : () => void article.refetch()}
      >
        {(a) => (
          <article className="help-article stack" aria-labelledby="help-article-title">
            <header>
              <h1 id="help-article-title">{a.title}</h1>
              <p className="muted">{t`Updated ${updated(a.updatedAt)}`}</p>
            </header>
            {/* The server renders the Markdown with raw HTML off and checked links (help-markdown.ts). */}
            <div className="help-article-body" dangerouslySetInnerHTML={{ __html: a.html }} />
            <section className="card help-vote" aria-labelledby="help-vote-title">
              <h2 id="help-vote-title">{t`Was this helpful?`}</h2>
              {voted === null ? (
                <div className="cluster">
                  <button type="button" className="btn btn-secondary" disabled={vote.isPending} onClick={() => void send(true)}>
                    {t`Yes`}
                  </button>
                  <button type="button" className="btn btn-secondary" disabled={vote.isPending} onClick={() => void send(false)}>
                    {t`No`}
                  </button>
                </div>
              ) : null}
              <p aria-live="polite">
                {voted === true && t`Thanks! Glad it helped.`}
                {voted === false && (
                  <RichText
                    message={t`Thanks for telling us. <0>Ask our support team</0> and we will answer you.`}
                    elements={[<Link key="support" to={SUPPORT_PATH} />]}
                  />
                )}
              </p>
              {vote.error && (
                <p className="field-error" role="alert">
                  {errorMessage(vote.error, t`Your vote could not be saved. Try again.`)}
                </p>
              )}
            </section>
            <p>
              <RichText message={t`Still stuck? <0>Open a support ticket</0>.`} elements={[<Link key="support" to={SUPPORT_PATH} />]} />
            </p>
          </article>
        )}
      </QueryState>
    </div>
  );
}
