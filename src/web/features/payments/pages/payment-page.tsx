import { t } from '@lingui/core/macro';
import { Navigate, useParams } from 'react-router';
import { paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { useLocale } from '#web/features/language';
import { PaymentComplete } from './payment-complete-page';

/** /dashboard/payments/<id>: one payment at its own address, linked from notices, mails and the payment history. */
export default function PaymentPage() {
  useLocale();
  usePageMeta(t`Payment`);
  const { paymentId } = useParams();
  if (!paymentId) return <Navigate to={paths.dashboard} replace />;
  return <PaymentComplete key={paymentId} id={paymentId} />;
}
