import { t } from '@lingui/core/macro';
import { Fragment, useEffect, type ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { RichText, useLocale } from '#web/features/language';
import { formatDate, formatLocaleDate } from '#web/lib/format';
import type { LegalBlock, LegalDocument } from '../content/types';
import '../marketing.css';

const EMAIL = /([\w.+-]+@[\w-]+\.[\w.-]*\w)/;

/** Plain text with any email address turned into a mailto: link. */
function withMailLinks(text: string): ReactNode {
  return text.split(EMAIL).map((part, index) =>
    index % 2 === 1 ? (
      <a key={index} href={`mailto:${part}`}>
        {part}
      </a>
    ) : (
      <Fragment key={index}>{part}</Fragment>
    ),
  );
}

function Block({ block }: { block: LegalBlock }) {
  if (block.kind === 'ul') {
    return (
      <ul>
        {block.items.map((item) => (
          <li key={item}>{withMailLinks(item)}</li>
        ))}
      </ul>
    );
  }
  return <p>{withMailLinks(block.text)}</p>;
}

interface LegalDocumentViewProps {
  document: LegalDocument;
  /** The route the document lives at ("/privacy"); sections are linked as `${basePath}/${id}`. */
  basePath: string;
}

/**
 * A privacy or terms document with a table of contents. Every section has its own URL: the sub-path
 * names the section (/terms/credits), and the page scrolls to it and moves focus to its heading.
 */
export function LegalDocumentView({ document: doc, basePath }: LegalDocumentViewProps) {
  const locale = useLocale();
  const sectionId = (useParams()['*'] ?? '').split('/')[0] ?? '';
  const current = doc.sections.find((section) => section.id === sectionId);
  // Following the same section link again (a new history entry) scrolls to it again.
  const { key } = useLocation();

  useEffect(() => {
    if (!current) return;
    const heading = window.document.getElementById(`${current.id}-title`);
    heading?.scrollIntoView({ block: 'start' });
    heading?.focus({ preventScroll: true });
  }, [current, key]);

  // English keeps its "18 November 2026" (formatDate); the other languages write the date their way.
  const updated = locale === 'en' ? formatDate(doc.updated) : formatLocaleDate(doc.updated);
  const title = doc.title;

  return (
    <div className="page">
      <header className="page-header">
        <p className="eyebrow">{t`Legal`}</p>
        <h1>{doc.title}</h1>
        <p className="muted">
          <RichText message={t`Last updated <0>${updated}</0>`} elements={[<time dateTime={doc.updated} />]} />
        </p>
        <p className="lead">{doc.intro}</p>
      </header>

      <div className="doc-layout">
        <nav className="doc-toc" aria-label={t`${title} sections`}>
          <ol>
            {doc.sections.map((section) => (
              <li key={section.id}>
                <Link to={`${basePath}/${section.id}`} aria-current={section.id === current?.id ? 'location' : undefined}>
                  {section.title}
                </Link>
              </li>
            ))}
          </ol>
        </nav>

        <article className="prose">
          {doc.sections.map((section) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} data-highlight={section.id === current?.id}>
              <h2 id={`${section.id}-title`} tabIndex={-1}>
                {section.title}
              </h2>
              {section.blocks.map((block, index) => (
                <Block key={index} block={block} />
              ))}
            </section>
          ))}
        </article>
      </div>
    </div>
  );
}
