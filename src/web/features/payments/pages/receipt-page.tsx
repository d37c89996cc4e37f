import { Link, useParams } from 'react-router';
import { formatCredits } from '#shared/fees';
import { dashboardPaths } from '#shared/routes';
import { usePageMeta } from '#web/components/use-page-meta';
import { ApiError } from '#web/lib/api-client';
import { useReceipt } from '../api/get-receipt';
import { receiptTitle } from '../components/ledger-kinds';
import '../payments.css';

const signed = (cents: number) => `${cents > 0 ? '+' : cents < 0 ? '−' : ''}${formatCredits(Math.abs(cents))}`;

/**
 * /dashboard/receipts/:entryId: the printable receipt of one ledger entry (a top-up, an order, a
 * charge, a refund...), with its ledger reference. The print stylesheet leaves the page chrome out.
 */
export default function ReceiptPage() {
  const { entryId = '' } = useParams();
  const receipt = useReceipt(entryId);
  usePageMeta(receipt.data ? `Receipt: ${receiptTitle(receipt.data.entry)}` : 'Receipt');

  if (receipt.isPending) {
    return (
      <section className="page dashboard-page">
        <p role="status" className="muted">
          Loading the receipt…
        </p>
      </section>
    );
  }
  if (receipt.isError) {
    const missing = receipt.error instanceof ApiError && receipt.error.status === 404;
    return (
      <section className="page dashboard-page">
        <h1>Receipt</h1>
        <p role="alert" className="field-error">
          {missing ? 'There is no such receipt in your account.' : 'Failed to load the receipt.'}
        </p>
        <Link className="btn btn-ghost" to={dashboardPaths.wallet}>
          ← Wallet
        </Link>
      </section>
    );
  }

  const { entry, account, payment, charge } = receipt.data;
  return (
    <section className="page dashboard-page receipt-page" aria-labelledby="receipt-title">
      <div className="receipt-actions no-print">
        <Link className="btn btn-ghost btn-small" to={dashboardPaths.wallet}>
          ← Wallet
        </Link>
        <button type="button" className="btn btn-secondary" onClick={() => window.print()}>
          Print
        </button>
      </div>
      <article className="card receipt">
        <header className="receipt-header">
          <p className="eyebrow">Olympus</p>
          <h1 id="receipt-title">Receipt: {receiptTitle(entry)}</h1>
          <p className="muted">{new Date(entry.createdAt).toLocaleString()}</p>
        </header>
        <dl className="receipt-details">
          <dt>Account</dt>
          <dd>
            {account.username} ({account.email})
          </dd>
          <dt>Description</dt>
          <dd data-testid="receipt-description">{entry.description}</dd>
          <dt>Amount</dt>
          <dd data-testid="receipt-amount">{signed(entry.amountCents)} credits</dd>
          <dt>Balance after</dt>
          <dd>{formatCredits(entry.balanceAfterCents)} credits</dd>
          <dt>Date (UTC)</dt>
          <dd>{entry.createdAt}</dd>
          <dt>Ledger reference</dt>
          <dd>
            <code data-testid="receipt-reference">{entry.reference}</code>
          </dd>
          <dt>Entry id</dt>
          <dd>
            <code>{entry._id}</code>
          </dd>
          {payment && (
            <>
              <dt>Payment</dt>
              <dd>
                <code>{payment.id}</code> ({payment.status})
              </dd>
              <dt>Paid in</dt>
              <dd>
                {payment.actuallyPaid ?? payment.payAmount ?? '—'} {payment.payCurrency.toUpperCase()}
              </dd>
              <dt>Price</dt>
              <dd>
                {formatCredits(payment.priceAmountCents)} {payment.priceCurrency.toUpperCase()}, fee {formatCredits(payment.feeCents)}
              </dd>
              {payment.txHash && (
                <>
                  <dt>Transaction</dt>
                  <dd>
                    <code>{payment.txHash}</code>
                  </dd>
                </>
              )}
            </>
          )}
          {charge && (
            <>
              <dt>Charge</dt>
              <dd>
                <code>{charge.id}</code> ({charge.status})
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
        <p className="muted receipt-note">1 credit = 1 USD. Keep this receipt for your records.</p>
      </article>
    </section>
  );
}
