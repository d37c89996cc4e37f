import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { LegalDocumentView } from '../components/legal-document-view';
import { TERMS_OF_SERVICE } from '../content/terms';

export default function TermsPage() {
  usePageMeta('Terms of Service', 'The terms for using Olympus: accounts, credits, crypto payments, swaps and rewards.');
  return <LegalDocumentView document={TERMS_OF_SERVICE} basePath={paths.terms} />;
}
