import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { PageHeader } from '#web/components/ui/page-header';
import { useLocale } from '#web/features/language';
import { portfolio } from '../content/portfolio';
import '../marketing.css';

export default function PortfolioPage() {
  useLocale();
  usePageMeta(t`Portfolio`, t`What the Olympus team has built: crypto top-ups, instant swaps with rewards, support and more.`);

  return (
    <div className="page">
      <PageHeader eyebrow={t`Portfolio`} title={t`What we have built`}>
        <p>{t`Every part of Olympus is built and run by our own team. Here is what each one does, and the promises we hold it to.`}</p>
      </PageHeader>

      <ul className="card-grid" aria-label={t`Projects`}>
        {portfolio().map((project) => (
          <li key={project.id} id={project.id} className="card">
            <article aria-labelledby={`${project.id}-title`}>
              <h2 id={`${project.id}-title`} className="card-title">
                {project.title}
              </h2>
              <ul className="tag-list" aria-label={t`Topics`}>
                {project.tags.map((tag) => (
                  <li key={tag} className="tag">
                    {tag}
                  </li>
                ))}
              </ul>
              <p>{project.summary}</p>
              <ul className="outcome-list">
                {project.outcomes.map((outcome) => (
                  <li key={outcome}>{outcome}</li>
                ))}
              </ul>
            </article>
          </li>
        ))}
      </ul>
    </div>
  );
}
