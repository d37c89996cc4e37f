import { t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { PageHeader } from '#web/components/ui/page-header';
import { RichText, useLocale } from '#web/features/language';
import { howToApply, jobs } from '../content/jobs';
import { CAREERS_EMAIL } from '../content/site';
import '../marketing.css';

export default function JobsPage() {
  useLocale();
  usePageMeta(t`Jobs`, t`Open roles at Olympus: build crypto payments, swaps and support that people trust.`);
  const JOBS = jobs();
  const mail = <a href={`mailto:${CAREERS_EMAIL}`} />;

  return (
    <div className="page">
      <PageHeader eyebrow={t`Careers`} title={t`Work on Olympus`}>
        <p>
          {t`We are a small, remote team building crypto payments that feel as dependable as a card payment. We write things down, test what matters and answer our customers ourselves.`}
        </p>
      </PageHeader>

      <section aria-labelledby="open-roles-title">
        <h2 id="open-roles-title">{t`Open roles`}</h2>
        {JOBS.length === 0 ? (
          <p className="muted">
            <RichText
              message={t`There are no open roles right now. You are welcome to write to <0>${CAREERS_EMAIL}</0> anyway.`}
              elements={[mail]}
            />
          </p>
        ) : (
          <ul className="job-list" aria-label={t`Open roles`}>
            {JOBS.map((job) => (
              <li key={job.id} id={job.id} className="card job-card">
                <article aria-labelledby={`${job.id}-title`}>
                  <h3 id={`${job.id}-title`}>{job.title}</h3>
                  <ul className="meta-list" aria-label={t`Details`}>
                    <li>{job.team}</li>
                    <li>{job.location}</li>
                    <li>{job.type}</li>
                  </ul>
                  <p>{job.summary}</p>
                  <details>
                    <summary>{t`Responsibilities and requirements`}</summary>
                    <h4>{t`What you will do`}</h4>
                    <ul>
                      {job.responsibilities.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                    <h4>{t`What we are looking for`}</h4>
                    <ul>
                      {job.requirements.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                    {job.niceToHave && job.niceToHave.length > 0 && (
                      <>
                        <h4>{t`Nice to have`}</h4>
                        <ul>
                          {job.niceToHave.map((item) => (
                            <li key={item}>{item}</li>
                          ))}
                        </ul>
                      </>
                    )}
                  </details>
                  <a
                    className="btn btn-secondary btn-small"
                    href={`mailto:${CAREERS_EMAIL}?subject=${encodeURIComponent(t`Application: ${job.title}`)}`}
                  >
                    <RichText message={t`Apply by email<0> for ${job.title}</0>`} elements={[<span className="visually-hidden" />]} />
                  </a>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="section" aria-labelledby="apply-title">
        <h2 id="apply-title">{t`How to apply`}</h2>
        <p className="muted measure">
          {howToApply()} <RichText message={t`Write to <0>${CAREERS_EMAIL}</0>.`} elements={[mail]} />
        </p>
      </section>
    </div>
  );
}
