import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { QR_CODE } from '#shared/constants';
import { paths } from '#shared/routes';
import type { Exchange, ExchangeRewards, ExchangeStatus } from '#shared/schemas/exchange';
import { SandboxPanel } from '#web/features/sandbox';
import { useExchangeStatus } from '../api/get-exchange';
import { CopyButton } from '#web/components/ui/copy-button';
import { formatClock, formatCreditAmount, formatDeadline } from '#web/lib/format';

// The QR code library is needed only once a deposit address exists: not on the page's first load.
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

const STEPS: { status: ExchangeStatus; label: string }[] = [
  { status: 'waiting', label: 'Deposit' },
  { status: 'confirming', label: 'Confirming' },
  { status: 'exchanging', label: 'Exchanging' },
  { status: 'sending', label: 'Sending' },
  { status: 'finished', label: 'Finished' },
];
const STEP_INDEX: Partial<Record<ExchangeStatus, number>> = {
  new: 0,
  waiting: 0,
  confirming: 1,
  exchanging: 2,
  sending: 3,
  verifying: 3,
  finished: 4,
};

export const STATUS_MESSAGES: Record<ExchangeStatus, string> = {
  new: 'Waiting for your deposit...',
  waiting: 'Waiting for your deposit...',
  confirming: 'Deposit detected! Waiting for blockchain confirmation...',
  exchanging: 'Exchanging your coins...',
  sending: 'Sending the coins to your address...',
  verifying: 'The exchange service is verifying this swap...',
  finished: 'Exchange finished! The coins are on their way to your address.',
  failed: 'The exchange failed. Contact support with the exchange id below.',
  refunded: 'The exchange was refunded to you.',
  expired: 'The exchange expired: no deposit arrived in time.',
};

interface ExchangeTrackerProps {
  exchange: Exchange;
  /** The create answer's rewards: present only right after creating (the claim code is shown once). */
  rewards?: ExchangeRewards | undefined;
  onDone: () => void;
}

/** The deposit address (QR code, copy buttons) and the live status of one exchange. */
export function ExchangeTracker({ exchange: initial, rewards, onDone }: ExchangeTrackerProps) {
  const { exchange, error, refresh } = useExchangeStatus(initial);
  const from = exchange.from.toUpperCase();
  const to = exchange.to.toUpperCase();
  const step = STEP_INDEX[exchange.status];
  const awaitingDeposit = exchange.status === 'waiting' || exchange.status === 'new';
  const ended = ['failed', 'refunded', 'expired'].includes(exchange.status);

  return (
    <div className="exchange-tracker">
      <div className="exchange-tracker-header">
        <h3>
          {exchange.amount} {from} → {to}
        </h3>
        <p className="muted">
          Exchange id <code>{exchange._id}</code>
        </p>
      </div>

      <p role="status" aria-live="polite" className={`exchange-status-message exchange-${exchange.status}`} data-testid="exchange-status">
        {STATUS_MESSAGES[exchange.status]}
      </p>
      {error && <p className="field-error">{error}</p>}

      {step !== undefined && (
        <ol className="exchange-steps" aria-label="Progress">
          {STEPS.map((s, i) => (
            <li
              key={s.status}
              className={i < step ? 'exchange-step-done' : i === step ? 'exchange-step-current' : undefined}
              aria-current={i === step ? 'step' : undefined}
            >
              {s.label}
            </li>
          ))}
        </ol>
      )}

      {awaitingDeposit && (
        <div className="deposit-details">
          <div className="deposit-qr">
            <Suspense fallback={<div style={{ width: QR_CODE.size, height: QR_CODE.size }} aria-hidden="true" />}>
              <QRCodeSVG
                value={exchange.payinAddress}
                size={QR_CODE.size}
                level={QR_CODE.level}
                marginSize={2}
                role="img"
                title={`QR code of the ${from} deposit address`}
              />
            </Suspense>
          </div>
          <div className="deposit-fields">
            <p>
              Send exactly{' '}
              <strong data-testid="deposit-amount">
                {exchange.amount} {from}
              </strong>{' '}
              to this address:
            </p>
            <div className="copy-row">
              <code className="deposit-address" data-testid="deposit-address">
                {exchange.payinAddress}
              </code>
              <CopyButton value={exchange.payinAddress} label="Copy deposit address" />
            </div>
            {exchange.payinExtraId && (
              <>
                <p>
                  With this destination tag / memo (<strong>required</strong>, or the deposit will not be found):
                </p>
                <div className="copy-row">
                  <code className="deposit-address">{exchange.payinExtraId}</code>
                  <CopyButton value={exchange.payinExtraId} label="Copy destination tag / memo" />
                </div>
              </>
            )}
            <p className="field-note">Send only {from} to this address. Other coins sent here are lost.</p>
          </div>
        </div>
      )}

      <dl className="exchange-summary">
        <div>
          <dt>{exchange.rateType === 'fixed' && !exchange.amountReceived ? 'You receive (fixed)' : 'You receive (estimate)'}</dt>
          <dd>
            {exchange.amountReceived ?? exchange.expectedAmount ?? '—'} {to}
          </dd>
        </div>
        <div>
          <dt>Rate</dt>
          <dd data-testid="exchange-rate-type">
            {exchange.rateType === 'fixed'
              ? `Fixed rate${exchange.rateValidUntil ? `, deposit before ${formatClock(Date.parse(exchange.rateValidUntil))}` : ''}`
              : 'Floating rate, may change'}
          </dd>
        </div>
        <div>
          <dt>Payout address</dt>
          <dd className="exchange-break">
            {exchange.payoutAddress}
            {exchange.payoutExtraId ? ` (memo ${exchange.payoutExtraId})` : ''}
          </dd>
        </div>
        <div>
          <dt>Refund address</dt>
          <dd className="break" data-testid="exchange-refund-address">
            {exchange.refundAddress
              ? `${exchange.refundAddress}${exchange.refundExtraId ? ` (memo ${exchange.refundExtraId})` : ''}`
              : 'None given'}
          </dd>
        </div>
        <div>
          <dt>Reward</dt>
          <dd>{rewardLine(exchange)}</dd>
        </div>
      </dl>

      {rewards?.claimCode && (
        <div className="notice claim-notice">
          <p>
            <strong>Your claim code:</strong> <code data-testid="claim-code">{rewards.claimCode}</code>{' '}
            <CopyButton value={rewards.claimCode} label="Copy claim code" />
          </p>
          <p>
            It is shown only once and kept in this browser. <Link to={paths.register}>Create an account</Link> or{' '}
            <Link to={paths.login}>log in</Link> here
            {rewards.claimDeadline ? ` before ${formatDeadline(Date.parse(rewards.claimDeadline))}` : ''} to claim{' '}
            {formatCreditAmount(rewards.potentialAmount)} credits once the exchange finishes.
          </p>
          <p>
            On another device, sign in and use <strong>Claim a reward</strong> on the dashboard with the exchange id above and this code.
          </p>
        </div>
      )}

      <SandboxPanel target={{ kind: 'exchange', id: exchange._id }} onMoved={refresh} />

      <div className="actions">
        <button type="button" className={`btn ${ended || exchange.status === 'finished' ? 'btn-primary' : 'btn-ghost'}`} onClick={onDone}>
          Start another exchange
        </button>
      </div>
    </div>
  );
}

function rewardLine(exchange: Exchange): string {
  const amount = `${formatCreditAmount(exchange.rewardAmount)} credits`;
  if (exchange.rewardCredited) return `${amount}, credited`;
  if (['failed', 'refunded', 'expired'].includes(exchange.status)) return 'None (the exchange did not finish)';
  if (exchange.rewardMode === 'claim')
    return exchange.status === 'finished' ? `${amount}, ready to claim` : `${amount} to claim when it finishes`;
  return exchange.status === 'finished' ? `${amount}, being credited` : `${amount} when it finishes`;
}
