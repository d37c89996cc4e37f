import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link, Navigate, useSearchParams } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { formatAmount, formatDateTime } from '#web/lib/format';
import { ApiError } from '#web/lib/api-client';
import { signedInUserId, useSessionStore } from '#web/features/auth';
import { useCredits } from '#web/features/auth/credits';
import { paymentQueryOptions } from '../api/get-payment';
import { isCompleteStatus, PROBLEM_STATUS_MESSAGES, STATUS_LABELS } from '../payment-status';
import '../payments.css';

/**
 * /payment/complete?id= (where the provider sends the payer back): what was paid, the credits added,
 * the new balance, a way back. The same view is the payment's own address, /dashboard/payments/<id>
 * (./payment-page.tsx).
 */
export default function PaymentCompletePage() {
  usePageMeta('Payment complete');
  const [params] = useSearchParams();
  const id = params.get('id');
  if (!id) return <Navigate to={paths.dashboard} replace />;
  return <PaymentComplete key={id} id={id} />;
}

export function PaymentComplete({ id }: { id: string }) {
  // Always read again here: the payment page loaded this payment seconds ago, before it was credited
  // (a sandbox payment can finish that fast), and that copy would show "Credits added 0.00".
  const query = useQuery({ ...paymentQueryOptions(id), refetchOnMount: 'always' });
  const data = query.isFetchedAfterMount ? (query.data ?? null) : null;
  const error = query.isError
    ? query.error instanceof ApiError && query.error.status === 404
      ? 'We could not find this payment in your account.'
      : 'Failed to check payment status'
    : null;
  // Keep the balance shown elsewhere in the app in step with the ledger, once the payment is known.
  const userId = useSessionStore(signedInUserId);
  useCredits(userId, data !== null);

  const payment = data?.payment;
  const done = payment ? isCompleteStatus(payment.status) : false;
  const problem = payment ? PROBLEM_STATUS_MESSAGES[payment.status] : undefined;
  const receiptEntryId = data?.receiptEntryId ?? null;
  const credited =
    done && payment ? `${formatAmount(payment.creditedAmount)} credits added. Balance: ${formatAmount(data!.balance)} credits.` : null;

  // Once the payment is known to be credited, say so where the user looks too (one toast per payment).
  useEffect(() => {
    if (credited) toast.success(`Payment credited: ${credited}`, { id: `payment-credited-${id}` });
  }, [credited, id]);

  return (
    <section className="page narrow payment-page" aria-labelledby="complete-title">
      <h1 id="complete-title">{done ? 'Payment complete' : 'Payment status'}</h1>
      {!data && !error && (
        <p role="status" className="muted">
          Loading payment…
        </p>
      )}
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {payment && data && (
        <div className="card payment-amounts">
          <p className="muted" data-testid="payment-named">
            Top-up of {formatAmount(payment.priceAmount)} USD in {payment.payCurrency.toUpperCase()}, started{' '}
            {formatDateTime(payment.createdAt)} · reference <code title={payment._id}>{payment._id.slice(0, 8)}</code>
          </p>
          {done ? (
            <div role="status">
              <p className="payment-success">Thank you! Your payment was received and your credits were added.</p>
              <p data-testid="complete-credited">{credited}</p>
            </div>
          ) : (
            <p role="status">Status: {STATUS_LABELS[payment.status]}</p>
          )}
          {problem && <p className="muted">{problem.text}</p>}
          <dl className="topup-summary">
            <div>
              <dt>You paid</dt>
              <dd>
                {payment.actuallyPaid ?? payment.payAmount} {payment.payCurrency.toUpperCase()} ({formatAmount(payment.priceAmount)} USD)
              </dd>
            </div>
            <div>
              <dt>Processing fee ({payment.feePercent}%)</dt>
              <dd>{formatAmount(payment.fee)} USD</dd>
            </div>
            <div>
              <dt>Credits added</dt>
              <dd data-testid="complete-credits">{formatAmount(payment.creditedAmount)}</dd>
            </div>
            <div>
              <dt>New balance</dt>
              <dd data-testid="complete-balance">{formatAmount(data.balance)} credits</dd>
            </div>
          </dl>
          {receiptEntryId && (
            <p className="payment-receipt-link">
              <Link
                className="btn btn-secondary"
                to={`${paths.dashboard}/receipts/${encodeURIComponent(receiptEntryId)}`}
                data-testid="complete-receipt"
              >
                View the receipt of this top-up
              </Link>
            </p>
          )}
        </div>
      )}
      <p>
        <Link className="btn btn-primary" to={dashboardPaths.wallet}>
          Back to my wallet
        </Link>
      </p>
    </section>
  );
}
