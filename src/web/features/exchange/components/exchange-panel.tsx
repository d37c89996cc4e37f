import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { exchangePath } from '#shared/routes';
import { REWARD_CLAIM_VALIDITY_HOURS } from '#shared/constants';
import type { EstimateResponse, Exchange, ExchangeCurrency, ExchangeRewards, RateType } from '#shared/schemas/exchange';
import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { ComponentNotice } from '#web/features/status/notice';
import { useSessionStore } from '#web/features/auth';
import { useLocale } from '#web/features/language';
import { useCreateExchange } from '../api/create-exchange';
import { useExchangeCurrencies } from '../api/get-exchange-currencies';
import { quoteTimeLeft, useExchangeEstimate } from '../api/get-exchange-estimate';
import { exchangeKeys } from '../api/exchange-keys';
import { useExchangeRange } from '../api/get-exchange-range';
import { useMyExchanges } from '../api/get-my-exchanges';
import { useLinkedExchange } from '../api/get-exchange';
import { useScrollToSection } from '#web/components/use-scroll-to-section';
import { useDebouncedValue } from '#web/lib/use-debounced-value';
import { useNow } from '../hooks/use-now';
import { saveClaim } from '../lib/reward-claims';
import { CurrencySelect } from './currency-select';
import { ExchangeTracker, STATUS_MESSAGES } from './exchange-tracker';
import { formatClock, formatCountdown, formatLocaleCredits, formatLocaleCrypto } from '#web/lib/format';
import { limitsText, rangeProblem } from './range-problem';
import { PendingRewards } from './pending-rewards';
import '../exchange.css';

/** The live estimate waits for typing to pause this long. */
const ESTIMATE_DEBOUNCE_MS = 400;
const DEFAULT_PAIR = { from: 'btc', to: 'eth' };

type EstimateState =
  { state: 'idle' } | { state: 'loading' } | { state: 'ready'; estimate: EstimateResponse } | { state: 'error'; message: string };

function parseAmount(text: string): number | null {
  const normalized = text.trim().replace(',', '.');
  if (!/^\d*\.?\d+$/.test(normalized) && !/^\d+\.$/.test(normalized)) return null;
  const n = Number(normalized);
  return Number.isFinite(n) && n > 0 ? n : null;
}

interface ExchangePanelProps {
  /** The section's id (the home page links to #exchange). */
  id?: string;
}

/**
 * The Exchange section (docs/product.md#exchange): anyone picks a pair, sees the live estimate and the reward,
 * enters the payout address, gets the deposit address and follows the status. A visitor without a
 * session becomes a guest when they create an exchange; a guest's claim is kept in this browser.
 */
/** Credits given as a number of whole credits (the exchange's rewards and values), in the page's language. */
const credits = (amount: number) => formatLocaleCredits(Math.round(amount * 100));

export default function ExchangePanel({ id = 'exchange' }: ExchangePanelProps) {
  useLocale();
  const titleId = useId();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const sessionChecked = useSessionStore((s) => s.sessionChecked);
  const hasSession = isAuthenticated || isGuest;
  const owner = useSessionStore((s) => s.userId ?? s.guestId ?? (s.isGuest ? 'guest' : null));

  const currenciesQuery = useExchangeCurrencies();
  const currencies: ExchangeCurrency[] | null = currenciesQuery.data?.currencies ?? null;
  // Asking again (Try again) shows the loading line, not the old error.
  const currenciesError =
    currenciesQuery.isError && !currenciesQuery.isFetching ? errorMessage(currenciesQuery.error, t`Could not load the currencies.`) : null;
  const [from, setFrom] = useState(DEFAULT_PAIR.from);
  const [to, setTo] = useState(DEFAULT_PAIR.to);
  const [amountText, setAmountText] = useState('0.01');
  const [payoutAddress, setPayoutAddress] = useState('');
  const [payoutExtraId, setPayoutExtraId] = useState('');
  const [refundAddress, setRefundAddress] = useState('');
  const [refundExtraId, setRefundExtraId] = useState('');
  const [rateType, setRateType] = useState<RateType>('floating');
  const [active, setActive] = useState<{ exchange: Exchange; rewards?: ExchangeRewards } | null>(null);
  const [claimsVersion, setClaimsVersion] = useState(0);

  const amount = parseAmount(amountText);
  // Debounced as one string: a fresh object every render would never settle.
  const queryKey = useDebouncedValue(`${from}|${to}|${amount ?? ''}|${rateType}`, ESTIMATE_DEBOUNCE_MS);
  const toCurrency = currencies?.find((c) => c.ticker === to);
  const fromCurrency = currencies?.find((c) => c.ticker === from);
  const [qFrom = '', qTo = '', qAmount = '', qRate = 'floating'] = queryKey.split('|');
  const estimateQuery = useExchangeEstimate(
    currencies && qAmount && qFrom !== qTo ? { from: qFrom, to: qTo, amount: Number(qAmount), rateType: qRate as RateType } : null,
  );
  // The pair's limits are shown before an amount is typed, and checked here as the server checks them.
  const rangeQuery = useExchangeRange(currencies && from !== to ? { from, to, rateType } : null);
  const range = rangeQuery.data && rangeQuery.data.from === from && rangeQuery.data.to === to ? rangeQuery.data : null;
  const amountOutOfRange = amount !== null && range ? rangeProblem(amount, range.minAmount, range.maxAmount, from) : null;
  const fixedQuote = estimateQuery.data?.rateType === 'fixed' ? estimateQuery.data : undefined;
  const now = useNow(Boolean(fixedQuote));
  const quoteLeft = quoteTimeLeft(fixedQuote, now);
  const estimate: EstimateState =
    estimateQuery.fetchStatus === 'idle' && estimateQuery.isPending
      ? { state: 'idle' }
      : estimateQuery.isFetching
        ? { state: 'loading' }
        : estimateQuery.isError
          ? { state: 'error', message: errorMessage(estimateQuery.error, t`Could not get an estimate right now.`) }
          : estimateQuery.data
            ? { state: 'ready', estimate: estimateQuery.data }
            : { state: 'idle' };

  // A session's recent exchanges, so one can be followed again after a reload.
  const myExchanges = useMyExchanges(sessionChecked && hasSession ? owner : null);
  const recent: Exchange[] = sessionChecked && hasSession ? (myExchanges.data?.exchanges ?? []) : [];
  // A notification links to one exchange (/dashboard?exchange=<id>#exchange): open it once, as if its
  // line in the recent list had been chosen; "back to the form" then stays on the form.
  const [searchParams] = useSearchParams();
  const linkedExchange = useLinkedExchange(sessionChecked && hasSession ? searchParams.get('exchange') : null);
  const openedLinked = useRef<string | null>(null);
  const [showLinked, setShowLinked] = useState(false);
  useEffect(() => {
    const exchange = linkedExchange.data?.exchange;
    if (!exchange || openedLinked.current === exchange._id) return;
    openedLinked.current = exchange._id;
    setActive({ exchange });
    setShowLinked(true);
  }, [linkedExchange.data]);
  // The sections above load after this one: keep it in view while they do.
  const sectionRef = useRef<HTMLElement>(null);
  useScrollToSection(sectionRef, showLinked);
  const client = useQueryClient();
  const createExchange = useCreateExchange();

  const chooseFrom = (ticker: string) => {
    if (ticker === to) setTo(from);
    setFrom(ticker);
    // A refund comes back in the currency sent: an address for the old one no longer fits.
    setRefundAddress('');
    setRefundExtraId('');
  };
  const chooseTo = (ticker: string) => {
    if (ticker === from) setFrom(to);
    setTo(ticker);
    setPayoutExtraId('');
  };

  const swapPair = () => {
    setFrom(to);
    setTo(from);
    setPayoutExtraId('');
    setRefundAddress('');
    setRefundExtraId('');
    exchangeForm.setErrors({});
  };

  const exchangeForm = useForm({
    validate: () => {
      const problems: Record<string, string> = {};
      if (amount === null) problems.amount = t`Enter an amount greater than zero`;
      else if (amountOutOfRange) problems.amount = amountOutOfRange;
      if (from === to) problems.to = t`Choose two different currencies`;
      if (!payoutAddress.trim()) problems.payoutAddress = t`Enter your ${to.toUpperCase()} payout address`;
      if (refundExtraId.trim() && !refundAddress.trim()) problems.refundAddress = t`Enter the refund address this memo belongs to`;
      return problems;
    },
    action: async () => {
      if (amount === null) return;
      // A fixed rate is the quote on screen: it must be for this amount and still valid.
      const quote = fixedQuote && fixedQuote.from === from && fixedQuote.to === to && fixedQuote.amount === amount ? fixedQuote : undefined;
      if (rateType === 'fixed' && (!quote?.rateId || (quoteTimeLeft(quote) ?? 0) <= 0)) {
        exchangeForm.setFormError(t`Wait for the fixed-rate quote for this amount, then create the exchange.`);
        return;
      }
      // A visitor becomes a guest first (in the mutation): exchanges and their rewards belong to a session.
      const response = await createExchange.mutateAsync({
        from,
        to,
        amount,
        payoutAddress: payoutAddress.trim(),
        ...(toCurrency?.hasExternalId && payoutExtraId.trim() ? { payoutExtraId: payoutExtraId.trim() } : {}),
        ...(refundAddress.trim() ? { refundAddress: refundAddress.trim() } : {}),
        ...(fromCurrency?.hasExternalId && refundExtraId.trim() ? { refundExtraId: refundExtraId.trim() } : {}),
        ...(rateType === 'fixed' && quote?.rateId ? { rateType, rateId: quote.rateId } : {}),
      });
      const { exchange, rewards } = response.data;
      if (rewards.claimCode) {
        saveClaim(exchange._id, {
          claimCode: rewards.claimCode,
          potentialRewards: rewards.potentialAmount,
          ...(rewards.claimDeadline ? { claimDeadline: rewards.claimDeadline } : {}),
        });
        setClaimsVersion((v) => v + 1);
      }
      setActive({ exchange, rewards });
      setPayoutAddress('');
      setPayoutExtraId('');
      setRefundAddress('');
      setRefundExtraId('');
    },
    onError: (err) => {
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      const newQuote = err instanceof ApiError ? (err.details as { quote?: EstimateResponse } | null | undefined)?.quote : undefined;
      if (newQuote) {
        // The quote expired (or was unknown): the server's new one replaces it on screen, to accept or not.
        client.setQueryData(exchangeKeys.estimate(newQuote.from, newQuote.to, newQuote.amount, newQuote.rateType), newQuote);
        exchangeForm.setFormError(errorMessage(err, t`That fixed rate has expired. Check the new quote.`));
        return true;
      }
      // A field's message sits beside it; move there so it is heard and can be fixed.
      const first = ['amount', 'payoutAddress', 'payoutExtraId', 'refundAddress', 'refundExtraId'].find((f) => fields[f]);
      if (first) document.getElementById(inputIds[first as keyof typeof inputIds])?.focus();
      return false;
    },
    formError: (err, fields) =>
      Object.keys(fields).length > 0 ? null : errorMessage(err, t`Could not create the exchange. Please try again.`),
    // The check before sending leaves focus where it is; the server's field errors move it (above, by the inputs' ids).
    focus: false,
  });
  const fieldErrors = exchangeForm.errors as Record<string, string | undefined>;
  const formError = exchangeForm.formError;

  const inputIds = {
    amount: `${titleId}-amount`,
    payoutAddress: `${titleId}-payout`,
    payoutExtraId: `${titleId}-memo`,
    refundAddress: `${titleId}-refund`,
    refundExtraId: `${titleId}-refund-memo`,
  };
  const amountError = fieldErrors.amount ?? amountOutOfRange;
  const errorId = (field: string) => `${titleId}-${field}-error`;
  const payoutMemoName = toCurrency?.externalIdName ?? t`Memo`;
  const refundMemoName = (fromCurrency?.externalIdName ?? t`memo`).toLowerCase();

  return (
    <section id={id} ref={sectionRef} className="section exchange-section" aria-labelledby={titleId}>
      <div className="section-header">
        <p className="eyebrow">{t`Exchange`}</p>
        <h2 id={titleId}>{t`Swap crypto and earn rewards`}</h2>
        <p className="muted">
          {estimate.state === 'ready'
            ? t`Swap one cryptocurrency for another at a live rate. Every finished swap earns reward credits (${estimate.estimate.reward.percent}% of its value); guests claim theirs by signing up or logging in.`
            : t`Swap one cryptocurrency for another at a live rate. Every finished swap earns reward credits; guests claim theirs by signing up or logging in.`}
        </p>
      </div>

      <div className="exchange-layout">
        <div className="card exchange-card">
          {!active && <ComponentNotice component="swap-provider" action="swaps" />}
          {active ? (
            <ExchangeTracker
              exchange={active.exchange}
              rewards={active.rewards}
              onDone={() => {
                // Back to the form: the finished exchange's last state shows in the recent list.
                setActive(null);
                void client.invalidateQueries({ queryKey: ['exchange', 'mine'] });
              }}
            />
          ) : currenciesError ? (
            <div role="alert">
              <p className="field-error">{currenciesError}</p>
              <button type="button" className="btn btn-secondary" onClick={() => void currenciesQuery.refetch()}>
                {t`Try again`}
              </button>
            </div>
          ) : !currencies ? (
            <p role="status" className="muted">
              {t`Loading currencies…`}
            </p>
          ) : (
            <Form form={exchangeForm} className="exchange-form" aria-describedby={formError ? `${titleId}-form-error` : undefined}>
              <div className="pair-row">
                <CurrencySelect label={t`You send`} currencies={currencies} value={from} onChange={chooseFrom} error={fieldErrors.from} />
                <button
                  type="button"
                  className="btn btn-ghost btn-small swap-button"
                  onClick={swapPair}
                  aria-label={t`Swap the two currencies`}
                >
                  ⇄
                </button>
                <CurrencySelect label={t`You get`} currencies={currencies} value={to} onChange={chooseTo} error={fieldErrors.to} />
              </div>

              <fieldset className="segmented rate-choice">
                <legend>{t`Rate`}</legend>
                <div className="segmented-options">
                  <label>
                    <input
                      type="radio"
                      name={`${titleId}-rate`}
                      value="floating"
                      checked={rateType === 'floating'}
                      onChange={() => setRateType('floating')}
                    />
                    <span className="segmented-text">
                      <span className="segmented-title">{t`Floating rate`}</span>
                      <span className="segmented-hint">{t`Market rate when your coins arrive`}</span>
                    </span>
                  </label>
                  <label>
                    <input
                      type="radio"
                      name={`${titleId}-rate`}
                      value="fixed"
                      checked={rateType === 'fixed'}
                      onChange={() => setRateType('fixed')}
                    />
                    <span className="segmented-text">
                      <span className="segmented-title">{t`Fixed rate`}</span>
                      <span className="segmented-hint">{t`The amount you get is guaranteed for a while`}</span>
                    </span>
                  </label>
                </div>
              </fieldset>

              <div className="field">
                <label htmlFor={`${titleId}-amount`}>{t`Amount to send (${from.toUpperCase()})`}</label>
                <p id={`${titleId}-range`} className="field-note" data-testid="exchange-range">
                  {range
                    ? limitsText(range.minAmount, range.maxAmount, from)
                    : rangeQuery.isError
                      ? t`Limits unavailable right now`
                      : '\u00a0'}
                </p>
                <input
                  id={`${titleId}-amount`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={amountText}
                  onChange={(e) => {
                    setAmountText(e.target.value);
                    exchangeForm.clearError('amount');
                  }}
                  aria-invalid={amountError ? true : undefined}
                  aria-describedby={amountError ? `${titleId}-range ${errorId('amount')}` : `${titleId}-range ${titleId}-estimate`}
                />
                {amountError && (
                  <p id={errorId('amount')} className="field-error">
                    {amountError}
                  </p>
                )}
              </div>

              <div id={`${titleId}-estimate`} className="estimate" aria-live="polite">
                {estimate.state === 'loading' && <p className="muted">{t`Getting the live rate…`}</p>}
                {estimate.state === 'error' && <p className="field-error">{estimate.message}</p>}
                {estimate.state === 'ready' && (
                  <p className="rate-line" data-testid="estimate-rate">
                    {estimate.estimate.rateType === 'fixed' && estimate.estimate.validUntil ? (
                      <>
                        <strong>{t`Fixed rate, valid until ${formatClock(Date.parse(estimate.estimate.validUntil))}`}</strong>{' '}
                        <span className="muted" aria-hidden="true">
                          ({quoteLeft ? t`${formatCountdown(quoteLeft)} left` : t`getting a new quote…`})
                        </span>
                      </>
                    ) : (
                      <strong>{t`Floating rate, may change`}</strong>
                    )}
                  </p>
                )}
                {estimate.state === 'ready' && (
                  <dl className="estimate-list">
                    <div>
                      <dt>{t`You get about`}</dt>
                      <dd data-testid="estimate-amount">
                        {formatLocaleCrypto(estimate.estimate.estimatedAmount)} {estimate.estimate.to.toUpperCase()}
                      </dd>
                    </div>
                    <div>
                      <dt>{t`Value`}</dt>
                      <dd>≈ {credits(estimate.estimate.usdValue)} USD</dd>
                    </div>
                    <div>
                      <dt>{t`Your reward`}</dt>
                      <dd data-testid="estimate-reward">{t`${credits(estimate.estimate.reward.amount)} credits`}</dd>
                    </div>
                    <div>
                      <dt>{t`Limits`}</dt>
                      <dd>{limitsText(estimate.estimate.minAmount, estimate.estimate.maxAmount, estimate.estimate.from)}</dd>
                    </div>
                  </dl>
                )}
                {estimate.state === 'ready' && estimate.estimate.warningMessage && (
                  <p className="field-note">{estimate.estimate.warningMessage}</p>
                )}
              </div>

              <TextField
                id={`${titleId}-payout`}
                label={t`Your ${to.toUpperCase()} payout address`}
                error={fieldErrors.payoutAddress}
                autoComplete="off"
                spellCheck={false}
                value={payoutAddress}
                onChange={(e) => setPayoutAddress(e.target.value)}
              />

              {toCurrency?.hasExternalId && (
                <TextField
                  id={`${titleId}-memo`}
                  label={t`${payoutMemoName} (if your wallet or exchange needs one)`}
                  error={fieldErrors.payoutExtraId}
                  autoComplete="off"
                  value={payoutExtraId}
                  onChange={(e) => setPayoutExtraId(e.target.value)}
                />
              )}

              <details
                className="refund-details"
                open={Boolean(refundAddress || fieldErrors.refundAddress || fieldErrors.refundExtraId) || undefined}
              >
                <summary>{t`Refund address (optional)`}</summary>
                <TextField
                  id={`${titleId}-refund`}
                  label={t`Your ${from.toUpperCase()} refund address`}
                  error={fieldErrors.refundAddress}
                  note={t`If the swap cannot be made, your ${from.toUpperCase()} comes back here.`}
                  autoComplete="off"
                  spellCheck={false}
                  value={refundAddress}
                  onChange={(e) => setRefundAddress(e.target.value)}
                />
                {fromCurrency?.hasExternalId && (
                  <TextField
                    id={`${titleId}-refund-memo`}
                    label={t`Refund ${refundMemoName} (if the refund address needs one)`}
                    error={fieldErrors.refundExtraId}
                    autoComplete="off"
                    value={refundExtraId}
                    onChange={(e) => setRefundExtraId(e.target.value)}
                  />
                )}
              </details>

              {formError && (
                <p id={`${titleId}-form-error`} className="field-error" role="alert">
                  {formError}
                </p>
              )}
              <StatusButton busy={exchangeForm.busy} busyLabel={t`Creating the exchange…`} className="btn btn-primary">
                {t`Exchange now`}
              </StatusButton>
              {sessionChecked && !isAuthenticated && (
                <p className="field-note">
                  {t`No account needed: as a guest you get a claim code for your reward, valid for ${REWARD_CLAIM_VALIDITY_HOURS / 24} days.`}
                </p>
              )}
            </Form>
          )}
        </div>

        <div className="exchange-side">
          {isGuest && <PendingRewards version={claimsVersion} />}
          <section className="card" aria-labelledby={`${titleId}-how`}>
            <h3 id={`${titleId}-how`}>{t`How a swap works`}</h3>
            <ol className="exchange-how">
              <li>{t`Choose the coin you send, the coin you want and your payout address.`}</li>
              <li>{t`Send your coins to the deposit address you get; this page follows the swap live.`}</li>
              <li>
                {t`The swapped coins arrive at your address and reward credits at your account. Guests keep a claim code and can claim for ${REWARD_CLAIM_VALIDITY_HOURS / 24} days by signing up or logging in.`}
              </li>
            </ol>
          </section>
          {recent.length > 0 && (
            <section className="card recent-exchanges" aria-labelledby={`${titleId}-recent`}>
              <h3 id={`${titleId}-recent`}>{t`Your recent exchanges`}</h3>
              <ul>
                {recent.map((e) => (
                  <li key={e._id}>
                    {/* Each exchange has its own address (docs/decisions/0317): a row opens it, can be shared or opened in a new tab. */}
                    <Link to={exchangePath(e._id)}>
                      {formatLocaleCrypto(e.amount)} {e.from.toUpperCase()} → {e.to.toUpperCase()}
                    </Link>
                    <span className="muted">{i18n._(STATUS_MESSAGES[e.status])}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </section>
  );
}
