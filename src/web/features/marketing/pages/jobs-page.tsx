import { usePageMeta } from '#web/components/use-page-meta';
import { PageHeader } from '#web/components/ui/page-header';
import { HOW_TO_APPLY, JOBS } from '../content/jobs';
import { CAREERS_EMAIL } from '../content/site';
import '../marketing.css';

export default function JobsPage() {
  usePageMeta('Jobs', 'Open roles at Olympus: build crypto payments, swaps and support that people trust.');

  return (
    <div className="page">
      <PageHeader eyebrow="Careers" title="Work on Olympus">
        <p>
          We are a small, remote team building crypto payments that feel as dependable as a card payment. We write things down, test what
          matters and answer our customers ourselves.
        </p>
      </PageHeader>

      <section aria-labelledby="open-roles-title">
        <h2 id="open-roles-title">Open roles</h2>
        {JOBS.length === 0 ? (
          <p className="muted">
            There are no open roles right now. You are welcome to write to <a href={`mailto:${CAREERS_EMAIL}`}>{CAREERS_EMAIL}</a> anyway.
          </p>
        ) : (
          <ul className="job-list" aria-label="Open roles">
            {JOBS.map((job) => (
              <li key={job.id} id={job.id} className="card job-card">
                <article aria-labelledby={`${job.id}-title`}>
                  <h3 id={`${job.id}-title`}>{job.title}</h3>
                  <ul className="meta-list" aria-label="Details">
                    <li>{job.team}</li>
                    <li>{job.location}</li>
                    <li>{job.type}</li>
                  </ul>
                  <p>{job.summary}</p>
                  <details>
                    <summary>Responsibilities and requirements</summary>
                    <h4>What you will do</h4>
                    <ul>
                      {job.responsibilities.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                    <h4>What we are looking for</h4>
                    <ul>
                      {job.requirements.map((item) => (
                        <li key={item}>{item}</li>
                      ))}
                    </ul>
                    {job.niceToHave && job.niceToHave.length > 0 && (
                      <>
                        <h4>Nice to have</h4>
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
                    href={`mailto:${CAREERS_EMAIL}?subject=${encodeURIComponent(`Application: ${job.title}`)}`}
                  >
                    Apply by email<span className="visually-hidden"> for {job.title}</span>
                  </a>
                </article>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="section" aria-labelledby="apply-title">
        <h2 id="apply-title">How to apply</h2>
        <p className="muted measure">
          {HOW_TO_APPLY} Write to <a href={`mailto:${CAREERS_EMAIL}`}>{CAREERS_EMAIL}</a>.
        </p>
      </section>
    </div>
  );
}
