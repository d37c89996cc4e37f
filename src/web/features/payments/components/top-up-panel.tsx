import { t } from '@lingui/core/macro';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { calculateFee, formatCredits, paymentCentsForCredits, toCents } from '#shared/fees';
import { paths } from '#shared/routes';
import type { CryptoOption, DepositLimits } from '#shared/schemas/payments';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { ComponentNotice } from '#web/features/status/notice';
import { useLocale } from '#web/features/language';
import { formatLocaleCredits } from '#web/lib/format';
import { useCreateDeposit } from '../api/create-deposit';
import { useCryptoOptions } from '../api/get-crypto-options';
import { PaymentCallError } from '../api/payment-call-error';
import '../payments.css';
import { savePaymentExpiry } from '../payment-expiry';
import { parseTopUpParam, TOP_UP_ANCHOR, TOP_UP_PARAM } from '../top-up-link';

/** The query /payment/process reads (docs/product.md#routes). */
export function paymentProcessUrl(p: {
  id: string;
  payAddress: string | null;
  payAmount: string | null;
  payCurrency: string;
  extraId: string | null;
}): string {
  const q = new URLSearchParams({ address: p.payAddress ?? '', amount: p.payAmount ?? '', currency: p.payCurrency, id: p.id });
  if (p.extraId) q.set('extraId', p.extraId);
  return `${paths.paymentProcess}?${q.toString()}`;
}

/**
 * Dashboard top-up: pick a currency, enter USD, see the fee and credits, create the deposit. A link with
 * `?topup=<credits>` (a purchase's shortfall) fills in the payment that covers those credits after the fee.
 */
export function TopUpPanel() {
  useLocale();
  const navigate = useNavigate();
  const ids = useId();
  const [searchParams] = useSearchParams();
  const wantedCents = parseTopUpParam(searchParams.get(TOP_UP_PARAM));
  const [prefilledFor, setPrefilledFor] = useState<number | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const options = useCryptoOptions();
  const cryptos: CryptoOption[] = useMemo(() => options.data?.cryptos ?? [], [options.data]);
  const limits: DepositLimits | null = options.data?.limits ?? null;
  const loadError = options.data?.error ?? null;
  const loading = options.isPending;
  const createDeposit = useCreateDeposit();
  const [search, setSearch] = useState('');
  const [crypto, setCrypto] = useState('');
  const [amount, setAmount] = useState('');
  const failure = createDeposit.isError
    ? createDeposit.error instanceof PaymentCallError
      ? createDeposit.error
      : new PaymentCallError(t`Failed to create deposit`, null, 0)
    : null;
  const error = failure ? { message: failure.message, reason: failure.reason } : null;
  // Busy while asking, and still after the answer while the page moves on to the payment.
  const submitting = createDeposit.isPending || createDeposit.isSuccess;

  // A new `?topup=` fills the amount once the limits are known (adjusting state while rendering).
  if (wantedCents !== null && wantedCents !== prefilledFor && !loading) {
    setPrefilledFor(wantedCents);
    const minCents = limits ? toCents(limits.minAmount) : 0;
    setAmount(formatCredits(Math.max(paymentCentsForCredits(wantedCents), minCents)));
  }
  useEffect(() => {
    if (prefilledFor === null) return;
    amountInput.current?.scrollIntoView?.({ block: 'center' });
    amountInput.current?.focus();
  }, [prefilledFor]);

  const filtered = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return cryptos;
    return cryptos.filter((c) => c.code.includes(needle) || c.name.toLowerCase().includes(needle));
  }, [cryptos, search]);

  const amountNumber = Number(amount);
  // A huge typed value ("1e20") is no amount at all: past whole cents, the fee cannot be computed.
  const validAmount =
    amount.trim() !== '' && Number.isFinite(amountNumber) && amountNumber > 0 && Number.isSafeInteger(toCents(amountNumber));
  const cents = validAmount ? toCents(amountNumber) : 0;
  const fee = validAmount ? calculateFee(cents) : null;
  const outOfRange = Boolean(limits && validAmount && (amountNumber < limits.minAmount || amountNumber > limits.maxAmount));
  const selected = cryptos.find((c) => c.code === crypto) ?? null;

  // What the form itself refuses before asking the server (its field errors); the server's refusal comes
  // from the mutation (decision 0225).
  const form = useForm<'crypto' | 'amount'>({
    focus: false,
    validate: () => {
      const problems: Record<string, string> = {};
      if (!crypto) problems.crypto = t`Choose a currency`;
      if (!validAmount) problems.amount = t`Enter an amount in USD`;
      else if (outOfRange && limits) {
        const min = formatCredits(toCents(limits.minAmount));
        const max = formatCredits(toCents(limits.maxAmount));
        problems.amount = t`Enter an amount from ${min} to ${max} USD`;
      }
      // A refused form no longer shows the last refusal of the server.
      if (Object.keys(problems).length > 0) createDeposit.reset();
      return problems;
    },
    action: () =>
      createDeposit.mutate(
        { crypto, amount: amountNumber },
        {
          onSuccess: (payment) => {
            savePaymentExpiry(payment._id, Date.parse(payment.expiresAt));
            navigate(paymentProcessUrl({ ...payment, id: payment._id }));
          },
        },
      ),
  });
  const fieldErrors: Partial<Record<string, string>> = Object.keys(form.errors).length > 0 ? form.errors : (failure?.fieldErrors ?? {});

  return (
    <section id={TOP_UP_ANCHOR} className="card payments-card topup-panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>{t`Top up credits`}</h2>
      <p className="muted">{t`Pay in cryptocurrency. Credits are added once the payment is confirmed.`}</p>
      <ComponentNotice component="payment-provider" action="top-ups" />
      {wantedCents !== null && (
        <p className="notice topup-wanted" data-testid="topup-wanted">
          {t`You need ${formatLocaleCredits(wantedCents)} more credits. The amount below covers them after the processing fee.`}
        </p>
      )}
      {loading && (
        <p role="status" className="muted">
          {t`Loading currencies…`}
        </p>
      )}
      {loadError && (
        <p role="alert" className="form-error">
          {loadError}
        </p>
      )}
      {!loading && !loadError && (
        <Form form={form}>
          <fieldset className="field payment-currency-fieldset" aria-describedby={fieldErrors.crypto ? `${ids}-crypto-error` : undefined}>
            <legend>{t`Currency`}</legend>
            <label htmlFor={`${ids}-search`} className="visually-hidden">
              {t`Search currencies`}
            </label>
            <input
              id={`${ids}-search`}
              type="search"
              placeholder={t`Search currencies`}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              autoComplete="off"
            />
            <div className="payment-currency-list" role="radiogroup" aria-label={t`Currencies`}>
              {filtered.length === 0 && <p className="muted">{t`No currency matches “${search}”.`}</p>}
              {filtered.map((c) => (
                <label key={c.code} className={`payment-currency-option${crypto === c.code ? ' payment-currency-selected' : ''}`}>
                  <input type="radio" name="crypto" value={c.code} checked={crypto === c.code} onChange={() => setCrypto(c.code)} />
                  <span className="currency-name">{c.name}</span>
                  <span className="payment-currency-code">{c.code.toUpperCase()}</span>
                  {c.hasExtraId && <span className="muted payment-currency-memo">{t`memo`}</span>}
                </label>
              ))}
            </div>
            {fieldErrors.crypto && (
              <p id={`${ids}-crypto-error`} className="form-error">
                {fieldErrors.crypto}
              </p>
            )}
          </fieldset>

          <div className="field">
            <label htmlFor={`${ids}-amount`}>{t`Amount (USD)`}</label>
            <input
              ref={amountInput}
              id={`${ids}-amount`}
              name="amount"
              type="number"
              inputMode="decimal"
              step="0.01"
              min={limits?.minAmount}
              max={limits?.maxAmount}
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={Boolean(fieldErrors.amount) || outOfRange}
              aria-describedby={`${ids}-amount-note`}
            />
            <p id={`${ids}-amount-note`} className={fieldErrors.amount || outOfRange ? 'form-error' : 'field-note'}>
              {fieldErrors.amount ??
                (limits ? t`From ${formatCredits(toCents(limits.minAmount))} to ${formatCredits(toCents(limits.maxAmount))} USD.` : '')}
            </p>
          </div>

          <dl className="topup-summary" aria-live="polite">
            <div>
              <dt>{t`Payment amount`}</dt>
              <dd data-testid="topup-amount">{fee ? `${formatLocaleCredits(fee.amountCents)} USD` : '—'}</dd>
            </div>
            <div>
              <dt>{fee ? t`Processing fee (${fee.feePercent}%)` : t`Processing fee`}</dt>
              <dd data-testid="topup-fee">{fee ? `${formatLocaleCredits(fee.feeCents)} USD` : '—'}</dd>
            </div>
            <div>
              <dt>{t`You receive`}</dt>
              <dd data-testid="topup-credits">{fee ? t`${formatLocaleCredits(fee.creditsCents)} credits` : '—'}</dd>
            </div>
          </dl>

          {error && (
            <div role="alert" className="form-error">
              <p>{error.message}</p>
              {error.reason && <p className="muted">{error.reason}</p>}
            </div>
          )}
          <StatusButton busy={submitting} busyLabel={t`Creating payment…`} className="btn btn-primary">
            {selected ? t`Pay with ${selected.code.toUpperCase()}` : t`Continue to payment`}
          </StatusButton>
        </Form>
      )}
    </section>
  );
}
