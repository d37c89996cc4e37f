import { t } from '@lingui/core/macro';
import { useMemo } from 'react';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { LegalDocumentView } from '../components/legal-document-view';
import { privacyPolicy } from '../content/privacy';

export default function PrivacyPage() {
  const locale = useLocale();
  usePageMeta(t`Privacy Policy`, t`What personal data Olympus collects, why, who we share it with and your rights.`);
  // Built once per language: the view scrolls to its section when the document changes.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the text is translated when it is built
  const document = useMemo(() => privacyPolicy(), [locale]);
  return <LegalDocumentView document={document} basePath={paths.privacy} />;
}
