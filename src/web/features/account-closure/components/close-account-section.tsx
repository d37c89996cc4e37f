import { plural, t } from '@lingui/core/macro';
import { useEffect, useId, useState } from 'react';
import { Dialog } from '#web/components/ui/dialog';
import { ErrorCode } from '#shared/error-codes';

import { TextField } from '#web/components/ui/forms';
import { Form, StatusButton, useForm } from '#web/components/ui/use-form';
import { StepUpField, useStepUp } from '#web/features/two-factor';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { formatLocaleCredits, formatLocaleDate, formatLocaleDateTime } from '#web/lib/format';
import { RichText, useLocale } from '#web/features/language';
import { useCloseAccount } from '../api/close-account';
import { useClosureSummary } from '../api/get-closure-summary';
import '../account-closure.css';

/** Where the sign-in page says the account is closing (router state after a closure). */
export interface ClosedAccountState {
  accountClosingOn: string;
}

/**
 * The closing date also waits in this tab's session storage: the session ended on the server, so any
 * request still in flight (the notification bell's) may be refused and send the browser to the sign-in
 * page with a full reload, which loses the navigation state. The sign-in page reads it once.
 */
export const CLOSED_ACCOUNT_NOTICE_KEY = 'olympus_account_closing_on';

export const readClosedAccountNotice = (): string | null => window.sessionStorage.getItem(CLOSED_ACCOUNT_NOTICE_KEY);
export const forgetClosedAccountNotice = (): void => window.sessionStorage.removeItem(CLOSED_ACCOUNT_NOTICE_KEY);

/**
 * Settings → Privacy → "Close my account" (decision 0255). The dialog shows the balance, what the ad
 * campaigns still hold (closing pauses them, decision 0304) and the orders still open, says plainly that
 * the credits are forfeited, asks for the password (and the second factor when two-factor is on) and
 * sends the figures it showed: when they moved, the server refuses (409 BALANCE_CHANGED) and the dialog
 * shows the new figures before anyone confirms again.
 */
export function CloseAccountSection({ onClosed }: { onClosed: (erasureAt: string) => void }) {
  const id = useId();
  useLocale();
  const [open, setOpen] = useState(false);
  return (
    <section className="card settings-section close-account" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t`Close my account`}</h3>
      <p>
        <RichText
          message={t`Closing signs you out everywhere, stops your webhook and API use, pauses your ad campaigns and removes your Discord and Telegram connections at once. For 14 days you can still sign in and restore the account; then it is erased and <0>any credits left, and what your ad campaigns still hold, are forfeited</0>.`}
          elements={[<strong />]}
        />
      </p>
      <button type="button" className="btn btn-danger" onClick={() => setOpen(true)} data-testid="close-account-open">
        {t`Close my account…`}
      </button>
      {open && <CloseAccountDialog onClose={() => setOpen(false)} onClosed={onClosed} />}
    </section>
  );
}

/** The calendar day the account is erased if closed now, in the language on screen. */
const erasureDay = (days: number) => formatLocaleDate(new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10));

function CloseAccountDialog({ onClose, onClosed }: { onClose: () => void; onClosed: (erasureAt: string) => void }) {
  const ids = useId();
  useLocale();
  const summary = useClosureSummary(true);
  const close = useCloseAccount();
  const stepUp = useStepUp();
  const [password, setPassword] = useState('');
  // The balance this dialog shows and acknowledges: set from the first answer, moved only by a BALANCE_CHANGED refusal.
  const [shownCents, setShownCents] = useState<number | null>(null);
  const [shownReserveCents, setShownReserveCents] = useState<number | null>(null);
  const [balanceChanged, setBalanceChanged] = useState(false);
  const [understood, setUnderstood] = useState(false);

  useEffect(() => {
    if (shownCents === null && summary.data) setShownCents(summary.data.balanceCents);
    if (shownReserveCents === null && summary.data) setShownReserveCents(summary.data.campaignReserveCents);
  }, [summary.data, shownCents, shownReserveCents]);

  const balance = shownCents ?? summary.data?.balanceCents ?? null;
  const reserve = shownReserveCents ?? summary.data?.campaignReserveCents ?? 0;
  const forfeited = (balance ?? 0) + reserve;
  const form = useForm<'password'>({
    validate: () => (password ? {} : { password: t`Enter your password` }),
    action: async () => {
      if (balance === null) return;
      if (!understood) {
        form.setFormError(t`Tick the box to confirm you understand what is forfeited.`);
        return;
      }
      const { erasureAt } = await close.mutateAsync({
        password,
        acknowledgeForfeitedCents: balance,
        acknowledgeCampaignReserveCents: reserve,
        ...stepUp.fields(),
      });
      stepUp.reset();
      // The server ended every session, this one included: the page that placed the section signs out.
      window.sessionStorage.setItem(CLOSED_ACCOUNT_NOTICE_KEY, erasureAt);
      onClosed(erasureAt);
    },
    onError: (err) => {
      if (stepUp.handleError(err)) return true;
      if (err instanceof ApiError && err.code === ErrorCode.BALANCE_CHANGED) {
        const details = err.details as { balanceCents?: number; campaignReserveCents?: number } | null;
        if (typeof details?.balanceCents === 'number') setShownCents(details.balanceCents);
        if (typeof details?.campaignReserveCents === 'number') setShownReserveCents(details.campaignReserveCents);
        // The campaigns' list may have changed too: fetch it again (the figures above stay those the server gave).
        void summary.refetch();
        setBalanceChanged(true);
        setUnderstood(false);
        return true;
      }
      // A wrong password is said on its field, which is emptied (and focused) to type it again.
      if (err instanceof ApiError && err.fieldErrors.password) setPassword('');
      return false;
    },
    mapFieldErrors: (fields) => (fields.password ? { password: fields.password } : {}),
    formError: (err, fields) => (fields.password ? null : errorMessage(err, t`Your account could not be closed. Try again.`)),
  });
  const pending = form.busy;

  return (
    <Dialog className="close-account-dialog" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-forfeit`} onClose={onClose}>
      <h2 id={`${ids}-title`}>{t`Close your account?`}</h2>
      {summary.isPending ? (
        <p aria-busy="true">{t`Checking your balance and orders…`}</p>
      ) : summary.isError ? (
        <div role="alert" className="form-error">
          <p>{errorMessage(summary.error, t`Your balance could not be loaded.`)}</p>
          <button type="button" className="btn btn-secondary" onClick={() => void summary.refetch()}>
            {t`Try again`}
          </button>
        </div>
      ) : (
        <Form form={form} aria-labelledby={`${ids}-title`}>
          <dl className="close-account-figures">
            <div>
              <dt>{t`Your balance`}</dt>
              <dd data-testid="close-account-balance">{t`${formatLocaleCredits(balance ?? 0)} credits`}</dd>
            </div>
            {summary.data.campaigns.length > 0 && (
              <div>
                <dt>{t`Ad campaigns (paused when you close)`}</dt>
                <dd data-testid="close-account-campaigns">
                  <ul>
                    {summary.data.campaigns.map((c) => (
                      <li key={c._id}>{t`${c.name}: ${formatLocaleCredits(c.reserveCents)} credits left in its budget`}</li>
                    ))}
                  </ul>
                </dd>
              </div>
            )}
            <div>
              <dt>{t`Orders not yet delivered`}</dt>
              <dd data-testid="close-account-orders">
                {summary.data.pendingOrders.length === 0 ? (
                  t`None`
                ) : (
                  <ul>
                    {summary.data.pendingOrders.map((o) => (
                      <li key={o._id}>
                        {t`${o.itemName}: ${formatLocaleCredits(o.priceCents)} credits, ${formatLocaleDateTime(o.createdAt)}`}
                      </li>
                    ))}
                  </ul>
                )}
              </dd>
            </div>
          </dl>
          <p id={`${ids}-forfeit`} className="close-account-forfeit">
            {forfeited > 0 ? (
              <>
                <strong>{t`You will lose ${formatLocaleCredits(forfeited)} credits.`}</strong>{' '}
                {reserve > 0 && (
                  <>{t`That is your balance and the ${formatLocaleCredits(reserve)} credits your ad campaigns still hold.`} </>
                )}
                {t`They are not paid out or refunded: when the account is erased they are forfeited.`}
              </>
            ) : (
              <>{t`You have no credits to lose.`}</>
            )}{' '}
            {summary.data.pendingOrders.length > 0 && <>{t`Orders not yet delivered may not reach you once your account is erased.`} </>}
            {plural(summary.data.erasureDelayDays, {
              one: `Your account is erased # day from now (around ${erasureDay(summary.data.erasureDelayDays)}); until then you can sign in and restore it.`,
              other: `Your account is erased # days from now (around ${erasureDay(summary.data.erasureDelayDays)}); until then you can sign in and restore it.`,
            })}
          </p>
          {balanceChanged && (
            <p className="form-error" role="alert" data-testid="close-account-balance-changed">
              {reserve > 0
                ? t`Your balance (${formatLocaleCredits(balance ?? 0)} credits) or what your ad campaigns hold (${formatLocaleCredits(reserve)} credits) changed since this dialog opened.`
                : t`Your balance changed to ${formatLocaleCredits(balance ?? 0)} credits since this dialog opened.`}{' '}
              {t`Check the figures above and confirm again.`}
            </p>
          )}
          <div className="close-account-checkbox-row">
            <input id={`${ids}-understood`} type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
            <label htmlFor={`${ids}-understood`}>
              {forfeited > 0
                ? t`I understand that ${formatLocaleCredits(forfeited)} credits are gone for good after 14 days.`
                : t`I understand that my account is gone for good after 14 days.`}
            </label>
          </div>
          <TextField
            id={`${ids}-password`}
            label={t`Password`}
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            error={form.errors.password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <StepUpField stepUp={stepUp} disabled={pending} />
          {form.formError && (
            <p className="form-error" role="alert">
              {form.formError}
            </p>
          )}
          <div className="actions">
            <StatusButton busy={pending} busyLabel={t`Closing…`} className="btn btn-danger">
              {t`Close my account`}
            </StatusButton>
            <button type="button" className="btn btn-ghost" onClick={onClose}>
              {t`Keep my account`}
            </button>
          </div>
        </Form>
      )}
    </Dialog>
  );
}
