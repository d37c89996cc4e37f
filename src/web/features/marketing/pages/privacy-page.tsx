import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { LegalDocumentView } from '../components/legal-document-view';
import { PRIVACY_POLICY } from '../content/privacy';

export default function PrivacyPage() {
  usePageMeta('Privacy Policy', 'What personal data Olympus collects, why, who we share it with and your rights.');
  return <LegalDocumentView document={PRIVACY_POLICY} basePath={paths.privacy} />;
}
