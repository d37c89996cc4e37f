import { usePageMeta } from '#web/components/use-page-meta';
import { AdSlot } from '#web/features/ads';
import { formatDate } from '#web/lib/format';
import { PageHeader } from '#web/components/ui/page-header';
import { PATCH_NOTES } from '../content/patch-notes';
import type { ChangeKind } from '../content/types';
import '../marketing.css';

const KIND_LABEL: Record<ChangeKind, string> = {
  new: 'New',
  improved: 'Improved',
  fixed: 'Fixed',
  security: 'Security',
};

export default function PatchNotesPage() {
  usePageMeta('Patch Notes', 'Every Olympus release: new features, improvements, fixes and security changes.');

  return (
    <div className="page">
      <PageHeader eyebrow="Changelog" title="Patch Notes">
        <p>What changed in each release of Olympus, newest first.</p>
      </PageHeader>

      <ol className="timeline" aria-label="Releases">
        {PATCH_NOTES.map((release) => (
          <li key={release.version} id={`v${release.version}`}>
            <article aria-labelledby={`v${release.version}-title`}>
              <time dateTime={release.date}>{formatDate(release.date)}</time>
              <h2 id={`v${release.version}-title`}>
                {release.version} · {release.title}
              </h2>
              <ul className="change-list">
                {release.changes.map((change) => (
                  <li key={change.text}>
                    <span className="change-kind" data-kind={change.kind}>
                      {KIND_LABEL[change.kind]}
                    </span>
                    <span>{change.text}</span>
                  </li>
                ))}
              </ul>
            </article>
          </li>
        ))}
      </ol>

      <AdSlot placement="patch-notes" />
    </div>
  );
}
