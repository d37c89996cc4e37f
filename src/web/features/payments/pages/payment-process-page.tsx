import { t } from '@lingui/core/macro';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { COUNTDOWN_TICK_MS, QR_CODE } from '#shared/constants';
import { paths } from '#shared/routes';
import type { Payment } from '#shared/schemas/payments';
import { usePageMeta } from '#web/components/use-page-meta';
import { SandboxPanel } from '#web/features/sandbox';
import { toCents } from '#shared/fees';
import { formatLocaleCredits, formatLocaleCrypto } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useCheckPayment } from '../api/check-payment';
import { usePayment } from '../api/get-payment';
import { usePaymentStatus } from '../api/get-payment-status';
import { PaymentCallError } from '../api/payment-call-error';
import { CopyButton } from '#web/components/ui/copy-button';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { clearPaymentExpiry, ensurePaymentExpiry, formatCountdown } from '../payment-expiry';
import { isCompleteStatus, paymentStatusMessage, paymentStatusView } from '../payment-status';
import '../payments.css';

interface ProcessQuery {
  address: string;
  amount: string;
  currency: string;
  id: string;
  extraId: string | null;
}

/** The query must describe the signed-in user's own payment (docs/product.md#payments: links are easy to forge). */
function differsFromPayment(q: ProcessQuery, p: Payment): boolean {
  return (
    p.payAddress !== q.address ||
    Number(p.payAmount) !== Number(q.amount) ||
    p.payCurrency.toLowerCase() !== q.currency.toLowerCase() ||
    (p.extraId ?? '') !== (q.extraId ?? '')
  );
}

/** /payment/process (docs/product.md#routes, #states, #validation, #constants). */
export default function PaymentProcessPage() {
  useLocale();
  usePageMeta(t`Complete Your Payment`);
  const [params] = useSearchParams();
  const address = params.get('address');
  const amount = params.get('amount');
  const currency = params.get('currency');
  const id = params.get('id');
  if (!address || !amount || !currency || !id) return <Navigate to={paths.dashboard} replace />;
  return <PaymentProcess key={id} query={{ address, amount, currency, id, extraId: params.get('extraId') || null }} />;
}

const usd = (dollars: number) => formatLocaleCredits(toCents(dollars));

function PaymentProcess({ query }: { query: ProcessQuery }) {
  useLocale();
  const navigate = useNavigate();
  const { id } = query;
  const [expiry] = useState(() => ensurePaymentExpiry(id));
  const [now, setNow] = useState(() => Date.now());
  const paymentQuery = usePayment(id);
  const payment: Payment | null = paymentQuery.data?.payment ?? null;
  const loadState: 'loading' | 'ready' | 'missing' | 'error' = payment
    ? 'ready'
    : paymentQuery.isFetching || paymentQuery.isPending
      ? 'loading'
      : paymentQuery.error instanceof ApiError && paymentQuery.error.status === 404
        ? 'missing'
        : 'error';
  const loadPayment = () => void paymentQuery.refetch();
  // Status: now, then every 15 seconds (docs/product.md#payment-status). A checked transaction hash answers sooner.
  const statusQuery = usePaymentStatus(id);
  const status = statusQuery.data?.payment_status ?? null;
  const statusError = statusQuery.isError ? errorMessage(statusQuery.error, t`Failed to check payment status`) : null;

  const remaining = Math.max(0, Math.ceil((expiry - now) / 1000));

  // Countdown: ticks every second; at zero the saved expiry goes and so does the user.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (remaining > 0) return;
    clearPaymentExpiry(id);
    navigate(paths.dashboard);
  }, [remaining, id, navigate]);

  // A finished payment: the saved expiry goes, and the user goes on to what was credited.
  useEffect(() => {
    if (!status || !isCompleteStatus(status)) return;
    clearPaymentExpiry(id);
    navigate(`${paths.paymentComplete}?id=${encodeURIComponent(id)}`, { replace: true });
  }, [status, id, navigate]);

  // What arrived and what was credited change with these statuses: read the payment again to say so.
  const refetchPayment = paymentQuery.refetch;
  useEffect(() => {
    if (status === 'partially_paid' || status === 'refunded') void refetchPayment();
  }, [status, refetchPayment]);

  const forged = loadState === 'missing' || (payment !== null && differsFromPayment(query, payment));
  const view = paymentStatusView(status, payment);
  const currencyLabel = query.currency.toUpperCase();

  return (
    <section className="page narrow payment-page" aria-labelledby="payment-title">
      <h1 id="payment-title">{t`Complete Your Payment`}</h1>
      <p className="notice payment-warning" role="note">
        <RichText
          message={t`<0>Do not close this page</0> until your payment is confirmed. We check its status automatically.`}
          elements={[<strong />]}
        />
      </p>

      <p className="payment-countdown">
        {t`Time remaining:`}{' '}
        <span data-testid="payment-countdown" role="timer" aria-live="off">
          {formatCountdown(remaining)}
        </span>
      </p>

      {loadState === 'loading' && (
        <p role="status" className="muted">
          {t`Loading payment details…`}
        </p>
      )}
      {loadState === 'error' && (
        <div role="alert" className="notice payment-problem">
          <p>{t`We could not load this payment's details. Check your connection and try again.`}</p>
          <button type="button" className="btn btn-secondary" onClick={loadPayment}>
            {t`Try again`}
          </button>
        </div>
      )}

      {forged && (
        <div role="alert" className="notice payment-problem" data-testid="payment-forged">
          <h2>{t`Do not send anything to this link`}</h2>
          <p>
            <RichText
              message={t`The address, amount or currency in this link do not match a payment in your account. Someone may have sent you a forged link. Start a top-up from your <0>dashboard</0> instead.`}
              elements={[<Link to={paths.dashboard} />]}
            />
          </p>
        </div>
      )}

      {payment && !forged && (
        <>
          <div className="card payment-amounts">
            <p className="payment-send">
              <RichText
                message={t`Send exactly <0>${formatLocaleCrypto(query.amount)} ${currencyLabel}</0>`}
                elements={[<strong data-testid="payment-pay-amount" />]}
              />
            </p>
            <p className="muted">≈ {usd(payment.priceAmount)} USD</p>
            <dl className="topup-summary">
              <div>
                <dt>{t`Payment amount`}</dt>
                <dd>{usd(payment.priceAmount)} USD</dd>
              </div>
              <div>
                <dt>{t`Processing fee (${payment.feePercent}%)`}</dt>
                <dd data-testid="payment-fee">{usd(payment.fee)} USD</dd>
              </div>
              <div>
                <dt>{t`Credits you will receive`}</dt>
                <dd data-testid="payment-credits">{usd(payment.credits)}</dd>
              </div>
            </dl>
          </div>

          <div className="card payment-destination">
            <div className="payment-qr">
              <QRCodeSVG
                value={query.address}
                size={QR_CODE.size}
                level={QR_CODE.level}
                title={t`QR code of the ${currencyLabel} address`}
              />
            </div>
            <div className="payment-field">
              <span className="payment-field-label" id="payment-address-label">
                {t`${currencyLabel} address`}
              </span>
              <code className="payment-value" aria-labelledby="payment-address-label" data-testid="payment-address">
                {query.address}
              </code>
              <CopyButton value={query.address} label={t`Copy address`} />
            </div>
            {query.extraId && (
              <div className="payment-field">
                <span className="payment-field-label" id="payment-memo-label">
                  {t`Destination tag / memo (required)`}
                </span>
                <code className="payment-value" aria-labelledby="payment-memo-label" data-testid="payment-memo">
                  {query.extraId}
                </code>
                <CopyButton value={query.extraId} label={t`Copy destination tag / memo`} />
              </div>
            )}
            <p className="notice payment-currency-notice">
              <RichText
                message={t`Send only <0>${currencyLabel}</0> to this address. Sending any other currency may result in the loss of your funds.`}
                elements={[<strong />]}
              />
            </p>
          </div>
        </>
      )}

      {/* A forged link gets the warning alone: a status line under it ("send the exact amount above")
          would contradict it. */}
      {!forged && (
        <div
          className={`card payment-status-box tone-${view.tone}`}
          role="status"
          aria-live="polite"
          aria-atomic="true"
          data-testid="payment-status"
        >
          <p className="payment-status-line">
            <span className={`status-badge payment-status-badge tone-${view.tone}`} data-testid="payment-status-badge">
              {view.label}
            </span>
          </p>
          <p className="payment-status" data-testid="payment-status-message">
            {view.headline}
          </p>
          <p className="payment-status-detail" data-testid="payment-status-detail">
            {view.detail}
          </p>
          {statusError && <p className="form-error">{statusError}</p>}
        </div>
      )}

      {payment && !forged && <TxHashCheck id={id} />}
      {payment && !forged && <SandboxPanel target={{ kind: 'payment', id }} onMoved={() => void statusQuery.refetch()} />}
    </section>
  );
}

/**
 * Already sent? A disclosure whose summary reads as a control: record the transaction hash and check
 * now (POST /api/payments/check). Busy and failure come from the mutation (decision 0225).
 */
function TxHashCheck({ id }: { id: string }) {
  useLocale();
  const [txHash, setTxHash] = useState('');
  const check = useCheckPayment(id);
  const form = useForm<'txHash'>({
    focus: false,
    validate: () => {
      if (txHash.trim()) return {};
      // A refused form no longer shows the last answer.
      check.reset();
      return { txHash: t`Enter the transaction hash` };
    },
    action: () => check.mutate(txHash.trim()),
  });

  const failure = check.error instanceof PaymentCallError ? check.error : null;
  const message = form.errors.txHash
    ? { text: form.errors.txHash, error: true }
    : check.isError
      ? { text: [failure?.message ?? t`Failed to check payment`, failure?.reason].filter(Boolean).join(': '), error: true }
      : check.isSuccess
        ? { text: paymentStatusMessage(check.data.payment_status), error: false }
        : null;

  return (
    <details className="payment-check" data-testid="payment-check">
      <summary className="btn btn-secondary payment-check-toggle">
        <span>{t`Already sent the payment? Check it with your transaction hash`}</span>
      </summary>
      <Form form={form} className="payment-check-form">
        <p className="muted">
          {t`Paste the transaction hash (TXID) from your wallet and we will ask the provider about this payment now instead of waiting for the next automatic check.`}
        </p>
        <div className="field">
          <label htmlFor="payment-tx-hash">{t`Transaction hash`}</label>
          <input id="payment-tx-hash" value={txHash} onChange={(e) => setTxHash(e.target.value)} autoComplete="off" spellCheck={false} />
        </div>
        {message && (
          <p role={message.error ? 'alert' : 'status'} className={message.error ? 'form-error' : 'muted'}>
            {message.text}
          </p>
        )}
        <StatusButton busy={check.isPending} busyLabel={t`Checking…`} className="btn btn-primary">
          {t`Check payment`}
        </StatusButton>
      </Form>
    </details>
  );
}
