import { Link } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { PageHeader } from '#web/components/ui/page-header';
import { REVIEWS } from '../content/reviews';
import '../marketing.css';

export default function ReviewsPage() {
  usePageMeta('Reviews', 'What Olympus customers say about crypto top-ups, swaps, rewards and support.');

  return (
    <div className="page">
      <PageHeader eyebrow="Reviews" title="What our customers say">
        <p>How people use Olympus for top-ups, swaps, rewards and support.</p>
      </PageHeader>

      <ul className="card-grid" aria-label="Reviews">
        {REVIEWS.map((review) => (
          <li key={review.id} className="card review-card">
            <figure>
              <p className="review-rating" role="img" aria-label={`Rated ${review.rating} out of 5`}>
                {'★'.repeat(review.rating)}
                {'☆'.repeat(5 - review.rating)}
              </p>
              <blockquote>
                <p>{review.quote}</p>
              </blockquote>
              <figcaption>
                <strong>{review.author}</strong>, {review.context}
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>

      <section className="section" aria-labelledby="share-title">
        <h2 id="share-title">Tell us how we are doing</h2>
        <p className="muted measure">
          Good or bad, we read every message. Use the contact form below, or open a support ticket from your{' '}
          <Link to={paths.dashboard}>dashboard</Link> if something needs fixing.
        </p>
      </section>
    </div>
  );
}
