import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { Link, useParams } from 'react-router';
import type { PaymentStatus } from '#shared/schemas/payments';
import { formatLocaleCredits, formatLocaleCrypto, formatLocaleDateTime } from '#web/lib/format';
import { useLocale } from '#web/features/language';
import { dashboardPaths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ApiError } from '#web/lib/api-client';
import { useReceipt } from '../api/get-receipt';
import { describeLedgerEntry } from '../components/ledger-describe';
import { receiptTitle } from '../components/ledger-kinds';
import { STATUS_LABELS } from '../payment-status';
import '../payments.css';
import { chargeStatusLabel } from '../labels';

const signed = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${formatLocaleCredits(Math.abs(cents))}`;

/** A payment's status by its name, or as it came when it is not one the app names. */
const paymentStatusName = (status: string) => (status in STATUS_LABELS ? i18n._(STATUS_LABELS[status as PaymentStatus]) : status);

/**
 * /dashboard/receipts/:entryId: the printable receipt of one ledger entry (a top-up, an order, a
 * charge, a refund...), with its ledger reference. The print stylesheet leaves the page chrome out.
 */
export default function ReceiptPage() {
  useLocale();
  const { entryId = '' } = useParams();
  const receipt = useReceipt(entryId);
  const title = receipt.data ? receiptTitle(receipt.data.entry) : null;
  usePageMeta(title ? t`Receipt: ${title}` : t`Receipt`);

  if (receipt.isPending) {
    return (
      <section className="page dashboard-page">
        <p role="status" className="muted">
          {t`Loading the receipt…`}
        </p>
      </section>
    );
  }
  if (receipt.isError) {
    const missing = receipt.error instanceof ApiError && receipt.error.status === 404;
    return (
      <section className="page dashboard-page">
        <h1>{t`Receipt`}</h1>
        <p role="alert" className="field-error">
          {missing ? t`There is no such receipt in your account.` : t`Failed to load the receipt.`}
        </p>
        <Link className="btn btn-ghost" to={dashboardPaths.wallet}>
          ← {t`Wallet`}
        </Link>
      </section>
    );
  }

  const { entry, account, payment, charge } = receipt.data;
  return (
    <section className="page dashboard-page receipt-page" aria-labelledby="receipt-title">
      <div className="receipt-actions no-print">
        <Link className="btn btn-ghost btn-small" to={dashboardPaths.wallet}>
          ← {t`Wallet`}
        </Link>
        <button type="button" className="btn btn-secondary" onClick={() => window.print()}>
          {t`Print`}
        </button>
      </div>
      <article className="card receipt">
        <header className="receipt-header">
          <p className="eyebrow">Olympus</p>
          <h1 id="receipt-title">{t`Receipt: ${receiptTitle(entry)}`}</h1>
          <p className="muted">{formatLocaleDateTime(entry.createdAt)}</p>
        </header>
        <dl className="receipt-details">
          <dt>{t`Account`}</dt>
          <dd>
            {account.username} ({account.email})
          </dd>
          <dt>{t`Description`}</dt>
          <dd data-testid="receipt-description">{describeLedgerEntry(entry)}</dd>
          <dt>{t`Amount`}</dt>
          <dd data-testid="receipt-amount">{t`${signed(entry.amountCents)} credits`}</dd>
          <dt>{t`Balance after`}</dt>
          <dd>{t`${formatLocaleCredits(entry.balanceAfterCents)} credits`}</dd>
          <dt>{t`Date (UTC)`}</dt>
          <dd>{entry.createdAt}</dd>
          <dt>{t`Ledger reference`}</dt>
          <dd>
            <code data-testid="receipt-reference">{entry.reference}</code>
          </dd>
          <dt>{t`Entry id`}</dt>
          <dd>
            <code>{entry._id}</code>
          </dd>
          {payment && (
            <>
              <dt>{t`Payment`}</dt>
              <dd>
                <code>{payment.id}</code> ({paymentStatusName(payment.status)})
              </dd>
              <dt>{t`Paid in`}</dt>
              <dd>
                {formatLocaleCrypto(payment.actuallyPaid ?? payment.payAmount ?? '—')} {payment.payCurrency.toUpperCase()}
              </dd>
              <dt>{t`Price`}</dt>
              <dd>
                {formatLocaleCredits(payment.priceAmountCents)} {payment.priceCurrency.toUpperCase()},{' '}
                {t`fee ${formatLocaleCredits(payment.feeCents)}`}
              </dd>
              {payment.txHash && (
                <>
                  <dt>{t`Transaction`}</dt>
                  <dd>
                    <code>{payment.txHash}</code>
                  </dd>
                </>
              )}
            </>
          )}
          {charge && (
            <>
              <dt>{t`Charge`}</dt>
              <dd>
                <code>{charge.id}</code> ({chargeStatusLabel(charge.status)})
              </dd>
              {Object.entries(charge.metadata).map(([k, v]) => (
                <div key={k} className="receipt-meta">
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </>
          )}
        </dl>
        <p className="muted receipt-note">{t`1 credit = 1 USD. Keep this receipt for your records.`}</p>
      </article>
    </section>
  );
}
