import { t } from '@lingui/core/macro';
import { useMemo } from 'react';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { LegalDocumentView } from '../components/legal-document-view';
import { termsOfService } from '../content/terms';

export default function TermsPage() {
  const locale = useLocale();
  usePageMeta(t`Terms of Service`, t`The terms for using Olympus: accounts, credits, crypto payments, swaps and rewards.`);
  // Built once per language: the view scrolls to its section when the document changes.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the text is translated when it is built
  const document = useMemo(() => termsOfService(), [locale]);
  return <LegalDocumentView document={document} basePath={paths.terms} />;
}
