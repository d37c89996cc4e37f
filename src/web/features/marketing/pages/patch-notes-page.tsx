import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { usePageMeta } from '#web/components/use-page-meta';
import { AdSlot } from '#web/features/ads';
import { useLocale } from '#web/features/language';
import { formatDate, formatLocaleDate } from '#web/lib/format';
import { PageHeader } from '#web/components/ui/page-header';
import { patchNotes } from '../content/patch-notes';
import type { ChangeKind } from '../content/types';
import '../marketing.css';

const KIND_LABEL: Record<ChangeKind, MessageDescriptor> = {
  new: msg`New`,
  improved: msg`Improved`,
  fixed: msg`Fixed`,
  security: msg`Security`,
};

export default function PatchNotesPage() {
  const locale = useLocale();
  usePageMeta(t`Patch Notes`, t`Every Olympus release: new features, improvements, fixes and security changes.`);
  // English keeps its "18 November 2026" (formatDate); the other languages write the date their way.
  const date = (iso: string) => (locale === 'en' ? formatDate(iso) : formatLocaleDate(iso));

  return (
    <div className="page">
      <PageHeader eyebrow={t`Changelog`} title={t`Patch Notes`}>
        <p>{t`What changed in each release of Olympus, newest first.`}</p>
      </PageHeader>

      <ol className="timeline" aria-label={t`Releases`}>
        {patchNotes().map((release) => (
          <li key={release.version} id={`v${release.version}`}>
            <article aria-labelledby={`v${release.version}-title`}>
              <time dateTime={release.date}>{date(release.date)}</time>
              <h2 id={`v${release.version}-title`}>
                {release.version} · {release.title}
              </h2>
              <ul className="change-list">
                {release.changes.map((change) => (
                  <li key={change.text}>
                    <span className="change-kind" data-kind={change.kind}>
                      {i18n._(KIND_LABEL[change.kind])}
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
