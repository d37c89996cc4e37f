import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { QR_CODE } from '#shared/constants';
import { paths } from '#shared/routes';
import type { Exchange, ExchangeRewards, ExchangeStatus } from '#shared/schemas/exchange';
import { SandboxPanel } from '#web/features/sandbox';
import { useExchangeStatus } from '../api/get-exchange';
import { CopyButton } from '#web/components/ui/copy-button';
import { RichText, useLocale } from '#web/features/language';
import { formatClock, formatLocaleCredits, formatLocaleCrypto, formatLocaleDateTime } from '#web/lib/format';

// The QR code library is needed only once a deposit address exists: not on the page's first load.
/** Credits given as a number of whole credits, in the page's language. */
const credits = (amount: number) => formatLocaleCredits(Math.round(amount * 100));

const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));

const STEPS: { status: ExchangeStatus; label: MessageDescriptor }[] = [
  { status: 'waiting', label: msg`Deposit` },
  { status: 'confirming', label: msg`Confirming` },
  { status: 'exchanging', label: msg`Exchanging` },
  { status: 'sending', label: msg`Sending` },
  { status: 'finished', label: msg`Finished` },
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

export const STATUS_MESSAGES: Record<ExchangeStatus, MessageDescriptor> = {
  new: msg`Waiting for your deposit...`,
  waiting: msg`Waiting for your deposit...`,
  confirming: msg`Deposit detected! Waiting for blockchain confirmation...`,
  exchanging: msg`Exchanging your coins...`,
  sending: msg`Sending the coins to your address...`,
  verifying: msg`The exchange service is verifying this swap...`,
  finished: msg`Exchange finished! The coins are on their way to your address.`,
  failed: msg`The exchange failed. Contact support with the exchange id below.`,
  refunded: msg`The exchange was refunded to you.`,
  expired: msg`The exchange expired: no deposit arrived in time.`,
};

interface ExchangeTrackerProps {
  exchange: Exchange;
  /** The create answer's rewards: present only right after creating (the claim code is shown once). */
  rewards?: ExchangeRewards | undefined;
  onDone: () => void;
}

/** The deposit address (QR code, copy buttons) and the live status of one exchange. */
export function ExchangeTracker({ exchange: initial, rewards, onDone }: ExchangeTrackerProps) {
  useLocale();
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
          {formatLocaleCrypto(exchange.amount)} {from} → {to}
        </h3>
        <p className="muted">
          {t`Exchange id`} <code>{exchange._id}</code>
        </p>
      </div>

      <p role="status" aria-live="polite" className={`exchange-status-message exchange-${exchange.status}`} data-testid="exchange-status">
        {i18n._(STATUS_MESSAGES[exchange.status])}
      </p>
      {error && <p className="field-error">{error}</p>}

      {step !== undefined && (
        <ol className="exchange-steps" aria-label={t`Progress`}>
          {STEPS.map((s, i) => (
            <li
              key={s.status}
              className={i < step ? 'exchange-step-done' : i === step ? 'exchange-step-current' : undefined}
              aria-current={i === step ? 'step' : undefined}
            >
              {i18n._(s.label)}
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
                title={t`QR code of the ${from} deposit address`}
              />
            </Suspense>
          </div>
          <div className="deposit-fields">
            <p>
              <RichText
                message={t`Send exactly <0>${formatLocaleCrypto(exchange.amount)} ${from}</0> to this address:`}
                elements={[<strong data-testid="deposit-amount" />]}
              />
            </p>
            <div className="copy-row">
              <code className="deposit-address" data-testid="deposit-address">
                {exchange.payinAddress}
              </code>
              <CopyButton value={exchange.payinAddress} label={t`Copy deposit address`} />
            </div>
            {exchange.payinExtraId && (
              <>
                <p>
                  <RichText
                    message={t`With this destination tag / memo (<0>required</0>, or the deposit will not be found):`}
                    elements={[<strong />]}
                  />
                </p>
                <div className="copy-row">
                  <code className="deposit-address">{exchange.payinExtraId}</code>
                  <CopyButton value={exchange.payinExtraId} label={t`Copy destination tag / memo`} />
                </div>
              </>
            )}
            <p className="field-note">{t`Send only ${from} to this address. Other coins sent here are lost.`}</p>
          </div>
        </div>
      )}

      <dl className="exchange-summary">
        <div>
          <dt>{exchange.rateType === 'fixed' && !exchange.amountReceived ? t`You receive (fixed)` : t`You receive (estimate)`}</dt>
          <dd>
            {formatLocaleCrypto(exchange.amountReceived ?? exchange.expectedAmount ?? '—')} {to}
          </dd>
        </div>
        <div>
          <dt>{t`Rate`}</dt>
          <dd data-testid="exchange-rate-type">
            {exchange.rateType === 'fixed'
              ? exchange.rateValidUntil
                ? t`Fixed rate, deposit before ${formatClock(Date.parse(exchange.rateValidUntil))}`
                : t`Fixed rate`
              : t`Floating rate, may change`}
          </dd>
        </div>
        <div>
          <dt>{t`Payout address`}</dt>
          <dd className="exchange-break">
            {exchange.payoutAddress}
            {exchange.payoutExtraId ? ` ${t`(memo ${exchange.payoutExtraId})`}` : ''}
          </dd>
        </div>
        <div>
          <dt>{t`Refund address`}</dt>
          <dd className="break" data-testid="exchange-refund-address">
            {exchange.refundAddress
              ? `${exchange.refundAddress}${exchange.refundExtraId ? ` ${t`(memo ${exchange.refundExtraId})`}` : ''}`
              : t`None given`}
          </dd>
        </div>
        <div>
          <dt>{t`Reward`}</dt>
          <dd>{rewardLine(exchange)}</dd>
        </div>
      </dl>

      {rewards?.claimCode && (
        <div className="notice claim-notice">
          <p>
            <strong>{t`Your claim code:`}</strong> <code data-testid="claim-code">{rewards.claimCode}</code>{' '}
            <CopyButton value={rewards.claimCode} label={t`Copy claim code`} />
          </p>
          <p>
            <RichText
              message={
                rewards.claimDeadline
                  ? t`It is shown only once and kept in this browser. <0>Create an account</0> or <1>log in</1> here before ${formatLocaleDateTime(rewards.claimDeadline)} to claim ${credits(rewards.potentialAmount)} credits once the exchange finishes.`
                  : t`It is shown only once and kept in this browser. <0>Create an account</0> or <1>log in</1> here to claim ${credits(rewards.potentialAmount)} credits once the exchange finishes.`
              }
              elements={[<Link to={paths.register} />, <Link to={paths.login} />]}
            />
          </p>
          <p>
            <RichText
              message={t`On another device, sign in and use <0>Claim a reward</0> on the dashboard with the exchange id above and this code.`}
              elements={[<strong />]}
            />
          </p>
        </div>
      )}

      <SandboxPanel target={{ kind: 'exchange', id: exchange._id }} onMoved={refresh} />

      <div className="actions">
        <button type="button" className={`btn ${ended || exchange.status === 'finished' ? 'btn-primary' : 'btn-ghost'}`} onClick={onDone}>
          {t`Start another exchange`}
        </button>
      </div>
    </div>
  );
}

function rewardLine(exchange: Exchange): string {
  const amount = credits(exchange.rewardAmount);
  if (exchange.rewardCredited) return t`${amount} credits, credited`;
  if (['failed', 'refunded', 'expired'].includes(exchange.status)) return t`None (the exchange did not finish)`;
  if (exchange.rewardMode === 'claim')
    return exchange.status === 'finished' ? t`${amount} credits, ready to claim` : t`${amount} credits to claim when it finishes`;
  return exchange.status === 'finished' ? t`${amount} credits, being credited` : t`${amount} credits when it finishes`;
}
