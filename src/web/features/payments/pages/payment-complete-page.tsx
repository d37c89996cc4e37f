import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { Link, Navigate, useSearchParams } from 'react-router';
import { dashboardPaths, paths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { toCents } from '#shared/fees';
import { formatLocaleCredits, formatLocaleCrypto, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
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
  useLocale();
  usePageMeta(t`Payment complete`);
  const [params] = useSearchParams();
  const id = params.get('id');
  if (!id) return <Navigate to={paths.dashboard} replace />;
  return <PaymentComplete key={id} id={id} />;
}

const usd = (dollars: number) => formatLocaleCredits(toCents(dollars));

export function PaymentComplete({ id }: { id: string }) {
  useLocale();
  // Always read again here: the payment page loaded this payment seconds ago, before it was credited
  // (a sandbox payment can finish that fast), and that copy would show "Credits added 0.00".
  const query = useQuery({ ...paymentQueryOptions(id), refetchOnMount: 'always' });
  const data = query.isFetchedAfterMount ? (query.data ?? null) : null;
  const error = query.isError
    ? query.error instanceof ApiError && query.error.status === 404
      ? t`We could not find this payment in your account.`
      : t`Failed to check payment status`
    : null;
  // Keep the balance shown elsewhere in the app in step with the ledger, once the payment is known.
  const userId = useSessionStore(signedInUserId);
  useCredits(userId, data !== null);

  const payment = data?.payment;
  const done = payment ? isCompleteStatus(payment.status) : false;
  const problem = payment ? PROBLEM_STATUS_MESSAGES[payment.status] : undefined;
  const paidAmount = payment ? formatLocaleCrypto(payment.actuallyPaid ?? payment.payAmount ?? '') : '';
  const paidCurrency = payment ? payment.payCurrency.toUpperCase() : '';
  const paidUsd = payment ? usd(payment.priceAmount) : '';
  // "0.00012 BTC (20.00 USD)": what was sent, and its worth in dollars.
  const paid = t`${paidAmount} ${paidCurrency} (${paidUsd} USD)`;
  const receiptEntryId = data?.receiptEntryId ?? null;
  const credited = done && payment ? t`${usd(payment.creditedAmount)} credits added. Balance: ${usd(data!.balance)} credits.` : null;

  // Once the payment is known to be credited, say so where the user looks too (one toast per payment).
  useEffect(() => {
    if (credited) toast.success(t`Payment credited: ${credited}`, { id: `payment-credited-${id}` });
  }, [credited, id]);

  return (
    <section className="page narrow payment-page" aria-labelledby="complete-title">
      <h1 id="complete-title">{done ? t`Payment complete` : t`Payment status`}</h1>
      {!data && !error && (
        <p role="status" className="muted">
          {t`Loading payment…`}
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
            {t`Top-up of ${usd(payment.priceAmount)} USD in ${payment.payCurrency.toUpperCase()}, started ${formatLocaleDateTime(payment.createdAt)}`}{' '}
            · {t`reference`} <code title={payment._id}>{payment._id.slice(0, 8)}</code>
          </p>
          {done ? (
            <div role="status">
              <p className="payment-success">{t`Thank you! Your payment was received and your credits were added.`}</p>
              <p data-testid="complete-credited">{credited}</p>
            </div>
          ) : (
            <p role="status">{t`Status: ${i18n._(STATUS_LABELS[payment.status])}`}</p>
          )}
          {problem && <p className="muted">{i18n._(problem.text)}</p>}
          <dl className="topup-summary">
            <div>
              <dt>{t`You paid`}</dt>
              <dd>{paid}</dd>
            </div>
            <div>
              <dt>{t`Processing fee (${payment.feePercent}%)`}</dt>
              <dd>{usd(payment.fee)} USD</dd>
            </div>
            <div>
              <dt>{t`Credits added`}</dt>
              <dd data-testid="complete-credits">{usd(payment.creditedAmount)}</dd>
            </div>
            <div>
              <dt>{t`New balance`}</dt>
              <dd data-testid="complete-balance">{t`${usd(data.balance)} credits`}</dd>
            </div>
          </dl>
          {receiptEntryId && (
            <p className="payment-receipt-link">
              <Link
                className="btn btn-secondary"
                to={`${paths.dashboard}/receipts/${encodeURIComponent(receiptEntryId)}`}
                data-testid="complete-receipt"
              >
                {t`View the receipt of this top-up`}
              </Link>
            </p>
          )}
        </div>
      )}
      <p>
        <Link className="btn btn-primary" to={dashboardPaths.wallet}>
          {t`Back to my wallet`}
        </Link>
      </p>
    </section>
  );
}
