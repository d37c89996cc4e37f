import { t } from '@lingui/core/macro';
import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { PageHeader } from '#web/components/ui/page-header';
import { RichText, useLocale } from '#web/features/language';
import { reviews } from '../content/reviews';
import '../marketing.css';

export default function ReviewsPage() {
  useLocale();
  usePageMeta(t`Reviews`, t`What Olympus customers say about crypto top-ups, swaps, rewards and support.`);

  return (
    <div className="page">
      <PageHeader eyebrow={t`Reviews`} title={t`What our customers say`}>
        <p>{t`How people use Olympus for top-ups, swaps, rewards and support.`}</p>
      </PageHeader>

      <ul className="card-grid" aria-label={t`Reviews`}>
        {reviews().map((review) => (
          <li key={review.id} className="card review-card">
            <figure>
              <p className="review-rating" role="img" aria-label={t`Rated ${review.rating} out of 5`}>
                {'★'.repeat(review.rating)}
                {'☆'.repeat(5 - review.rating)}
              </p>
              <blockquote>
                <p>{review.quote}</p>
              </blockquote>
              <figcaption>
                <RichText message={t`<0>${review.author}</0>, ${review.context}`} elements={[<strong />]} />
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>

      <section className="section" aria-labelledby="share-title">
        <h2 id="share-title">{t`Tell us how we are doing`}</h2>
        <p className="muted measure">
          <RichText
            message={t`Good or bad, we read every message. Use the contact form below, or open a support ticket from your <0>dashboard</0> if something needs fixing.`}
            elements={[<Link to={paths.dashboard} />]}
          />
        </p>
      </section>
    </div>
  );
}
