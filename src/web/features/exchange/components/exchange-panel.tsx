import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { REWARD_CLAIM_VALIDITY_HOURS } from '#shared/constants';
import type { EstimateResponse, Exchange, ExchangeCurrency, ExchangeRewards } from '#shared/schemas/exchange';
import { TextField } from '#web/components/ui/forms';
import { ApiError } from '#web/lib/api-client';
import { errorMessage, useSessionStore } from '#web/features/auth';
import { useCreateExchange } from '../api/create-exchange';
import { useExchangeCurrencies } from '../api/get-exchange-currencies';
import { useExchangeEstimate } from '../api/get-exchange-estimate';
import { useMyExchanges } from '../api/get-my-exchanges';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { saveClaim } from '../lib/reward-claims';
import { CurrencySelect } from './currency-select';
import { ExchangeTracker, STATUS_MESSAGES } from './exchange-tracker';
import { formatCreditAmount } from './format';
import { PendingRewards } from './pending-rewards';
import '../exchange.css';

/** The live estimate waits for typing to pause this long. */
const ESTIMATE_DEBOUNCE_MS = 400;
const DEFAULT_PAIR = { from: 'btc', to: 'eth' };

type EstimateState =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; estimate: EstimateResponse }
  | { state: 'error'; message: string };

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
 * The Exchange section (design.md section 7): anyone picks a pair, sees the live estimate and the reward,
 * enters the payout address, gets the deposit address and follows the status. A visitor without a
 * session becomes a guest when they create an exchange; a guest's claim is kept in this browser.
 */
export default function ExchangePanel({ id = 'exchange' }: ExchangePanelProps) {
  const titleId = useId();
  const isAuthenticated = useSessionStore((s) => s.isAuthenticated);
  const isGuest = useSessionStore((s) => s.isGuest);
  const sessionChecked = useSessionStore((s) => s.sessionChecked);
  const hasSession = isAuthenticated || isGuest;
  const owner = useSessionStore((s) => s.user?._id ?? s.guestId ?? (s.isGuest ? 'guest' : null));

  const currenciesQuery = useExchangeCurrencies();
  const currencies: ExchangeCurrency[] | null = currenciesQuery.data?.currencies ?? null;
  // Asking again (Try again) shows the loading line, not the old error.
  const currenciesError =
    currenciesQuery.isError && !currenciesQuery.isFetching ? errorMessage(currenciesQuery.error, 'Could not load the currencies.') : null;
  const [from, setFrom] = useState(DEFAULT_PAIR.from);
  const [to, setTo] = useState(DEFAULT_PAIR.to);
  const [amountText, setAmountText] = useState('0.01');
  const [payoutAddress, setPayoutAddress] = useState('');
  const [payoutExtraId, setPayoutExtraId] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [active, setActive] = useState<{ exchange: Exchange; rewards?: ExchangeRewards } | null>(null);
  const [claimsVersion, setClaimsVersion] = useState(0);

  const amount = parseAmount(amountText);
  // Debounced as one string: a fresh object every render would never settle.
  const queryKey = useDebouncedValue(`${from}|${to}|${amount ?? ''}`, ESTIMATE_DEBOUNCE_MS);
  const toCurrency = currencies?.find((c) => c.ticker === to);
  const [qFrom = '', qTo = '', qAmount = ''] = queryKey.split('|');
  const estimateQuery = useExchangeEstimate(currencies && qAmount && qFrom !== qTo ? { from: qFrom, to: qTo, amount: Number(qAmount) } : null);
  const estimate: EstimateState =
    estimateQuery.fetchStatus === 'idle' && estimateQuery.isPending
      ? { state: 'idle' }
      : estimateQuery.isFetching
        ? { state: 'loading' }
        : estimateQuery.isError
          ? { state: 'error', message: errorMessage(estimateQuery.error, 'Could not get an estimate right now.') }
          : estimateQuery.data
            ? { state: 'ready', estimate: estimateQuery.data }
            : { state: 'idle' };

  // A session's recent exchanges, so one can be followed again after a reload.
  const myExchanges = useMyExchanges(sessionChecked && hasSession ? owner : null);
  const recent: Exchange[] = sessionChecked && hasSession ? (myExchanges.data?.exchanges ?? []) : [];
  const client = useQueryClient();
  const createExchange = useCreateExchange();

  const chooseFrom = (ticker: string) => {
    if (ticker === to) setTo(from);
    setFrom(ticker);
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
    setFieldErrors({});
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const problems: Record<string, string> = {};
    if (amount === null) problems.amount = 'Enter an amount greater than zero';
    if (from === to) problems.to = 'Choose two different currencies';
    if (!payoutAddress.trim()) problems.payoutAddress = `Enter your ${to.toUpperCase()} payout address`;
    setFieldErrors(problems);
    if (Object.keys(problems).length > 0 || amount === null) return;

    setSubmitting(true);
    try {
      // A visitor becomes a guest: exchanges and their rewards belong to a session.
      if (!useSessionStore.getState().isAuthenticated && !useSessionStore.getState().isGuest) {
        await useSessionStore.getState().guestLogin();
      }
      const response = await createExchange.mutateAsync({
        from,
        to,
        amount,
        payoutAddress: payoutAddress.trim(),
        ...(toCurrency?.hasExternalId && payoutExtraId.trim() ? { payoutExtraId: payoutExtraId.trim() } : {}),
      });
      const { exchange, rewards } = response.data;
      if (rewards.claimCode) {
        saveClaim(exchange._id, { claimCode: rewards.claimCode, potentialRewards: rewards.potentialAmount, ...(rewards.claimDeadline ? { claimDeadline: rewards.claimDeadline } : {}) });
        setClaimsVersion((v) => v + 1);
      }
      setActive({ exchange, rewards });
      setPayoutAddress('');
      setPayoutExtraId('');
    } catch (err) {
      const fields = err instanceof ApiError ? err.fieldErrors : {};
      if (Object.keys(fields).length > 0) {
        // The message sits beside its field; move there so it is heard and can be fixed.
        setFieldErrors(fields);
        const first = ['amount', 'payoutAddress', 'payoutExtraId'].find((f) => fields[f]);
        if (first) document.getElementById(inputIds[first as keyof typeof inputIds])?.focus();
      } else {
        setFormError(errorMessage(err, 'Could not create the exchange. Please try again.'));
      }
    } finally {
      setSubmitting(false);
    }
  };

  const inputIds = { amount: `${titleId}-amount`, payoutAddress: `${titleId}-payout`, payoutExtraId: `${titleId}-memo` };
  const errorId = (field: string) => `${titleId}-${field}-error`;
  const fieldError = (field: string) =>
    fieldErrors[field] ? (
      <p id={errorId(field)} className="field-error">
        {fieldErrors[field]}
      </p>
    ) : null;

  return (
    <section id={id} className="section exchange-section" aria-labelledby={titleId}>
      <div className="section-header">
        <p className="eyebrow">Exchange</p>
        <h2 id={titleId}>Swap crypto and earn rewards</h2>
        <p className="muted">
          Swap one cryptocurrency for another at a live rate. Every finished swap earns reward credits
          {estimate.state === 'ready' ? ` (${estimate.estimate.reward.percent}% of its value)` : ''}; guests claim theirs by signing up or
          logging in.
        </p>
      </div>

      <div className="exchange-layout">
        <div className="card exchange-card">
          {active ? (
            <ExchangeTracker exchange={active.exchange} rewards={active.rewards} onDone={() => {
                // Back to the form: the finished exchange's last state shows in the recent list.
                setActive(null);
                void client.invalidateQueries({ queryKey: ['exchange', 'mine'] });
              }}
            />
          ) : currenciesError ? (
            <div role="alert">
              <p className="field-error">{currenciesError}</p>
              <button type="button" className="btn btn-secondary" onClick={() => void currenciesQuery.refetch()}>
                Try again
              </button>
            </div>
          ) : !currencies ? (
            <p role="status" className="muted">
              Loading currencies…
            </p>
          ) : (
            <form className="exchange-form" onSubmit={(e) => void submit(e)} noValidate aria-describedby={formError ? `${titleId}-form-error` : undefined}>
              <div className="pair-row">
                <CurrencySelect label="You send" currencies={currencies} value={from} onChange={chooseFrom} error={fieldErrors.from} />
                <button type="button" className="btn btn-ghost btn-small swap-button" onClick={swapPair} aria-label="Swap the two currencies">
                  ⇄
                </button>
                <CurrencySelect
                  label="You get"
                  currencies={currencies}
                  value={to}
                  onChange={chooseTo}
                  error={fieldErrors.to}
                />
              </div>

              <div className="field">
                <label htmlFor={`${titleId}-amount`}>Amount to send ({from.toUpperCase()})</label>
                <input
                  id={`${titleId}-amount`}
                  inputMode="decimal"
                  autoComplete="off"
                  value={amountText}
                  onChange={(e) => setAmountText(e.target.value)}
                  aria-invalid={fieldErrors.amount ? true : undefined}
                  aria-describedby={fieldErrors.amount ? errorId('amount') : `${titleId}-estimate`}
                />
                {fieldError('amount')}
              </div>

              <div id={`${titleId}-estimate`} className="estimate" aria-live="polite">
                {estimate.state === 'loading' && <p className="muted">Getting the live rate…</p>}
                {estimate.state === 'error' && <p className="field-error">{estimate.message}</p>}
                {estimate.state === 'ready' && (
                  <dl className="estimate-list">
                    <div>
                      <dt>You get about</dt>
                      <dd data-testid="estimate-amount">
                        {estimate.estimate.estimatedAmount} {estimate.estimate.to.toUpperCase()}
                      </dd>
                    </div>
                    <div>
                      <dt>Value</dt>
                      <dd>≈ {estimate.estimate.usdValue.toFixed(2)} USD</dd>
                    </div>
                    <div>
                      <dt>Your reward</dt>
                      <dd data-testid="estimate-reward">{formatCreditAmount(estimate.estimate.reward.amount)} credits</dd>
                    </div>
                    <div>
                      <dt>Minimum</dt>
                      <dd>
                        {estimate.estimate.minAmount} {estimate.estimate.from.toUpperCase()}
                      </dd>
                    </div>
                  </dl>
                )}
                {estimate.state === 'ready' && estimate.estimate.warningMessage && <p className="field-note">{estimate.estimate.warningMessage}</p>}
              </div>

              <TextField
                id={`${titleId}-payout`}
                label={`Your ${to.toUpperCase()} payout address`}
                error={fieldErrors.payoutAddress}
                autoComplete="off"
                spellCheck={false}
                value={payoutAddress}
                onChange={(e) => setPayoutAddress(e.target.value)}
              />

              {toCurrency?.hasExternalId && (
                <TextField
                  id={`${titleId}-memo`}
                  label={`${toCurrency.externalIdName ?? 'Memo'} (if your wallet or exchange needs one)`}
                  error={fieldErrors.payoutExtraId}
                  autoComplete="off"
                  value={payoutExtraId}
                  onChange={(e) => setPayoutExtraId(e.target.value)}
                />
              )}

              {formError && (
                <p id={`${titleId}-form-error`} className="field-error" role="alert">
                  {formError}
                </p>
              )}
              <button type="submit" className="btn btn-primary" disabled={submitting}>
                {submitting ? 'Creating the exchange…' : 'Exchange now'}
              </button>
              {sessionChecked && !isAuthenticated && (
                <p className="field-note">No account needed: as a guest you get a claim code for your reward, valid for {REWARD_CLAIM_VALIDITY_HOURS / 24} days.</p>
              )}
            </form>
          )}
        </div>

        <div className="exchange-side">
          {isGuest && <PendingRewards version={claimsVersion} />}
          <section className="card" aria-labelledby={`${titleId}-how`}>
            <h3 id={`${titleId}-how`}>How a swap works</h3>
            <ol className="exchange-how">
              <li>Choose the coin you send, the coin you want and your payout address.</li>
              <li>Send your coins to the deposit address you get; this page follows the swap live.</li>
              <li>
                The swapped coins arrive at your address and reward credits at your account. Guests keep a claim code and can
                claim for {REWARD_CLAIM_VALIDITY_HOURS / 24} days by signing up or logging in.
              </li>
            </ol>
          </section>
          {recent.length > 0 && (
            <section className="card recent-exchanges" aria-labelledby={`${titleId}-recent`}>
              <h3 id={`${titleId}-recent`}>Your recent exchanges</h3>
              <ul>
                {recent.map((e) => (
                  <li key={e._id}>
                    <button type="button" className="link-button" onClick={() => setActive({ exchange: e })}>
                      {e.amount} {e.from.toUpperCase()} → {e.to.toUpperCase()}
                    </button>
                    <span className="muted">{STATUS_MESSAGES[e.status]}</span>
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
